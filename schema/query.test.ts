import { z } from 'zod';
import { jsonQuery } from './query';

describe('jsonQuery', () => {
  it('decodes JSON-encoded values and keeps plain strings', () => {
    const schema = jsonQuery({
      filter: z.enum(['all', 'read']),
      isRead: z.boolean().optional(),
      ids: z.array(z.string()).optional(),
      q: z.string().optional(),
    });
    expect(schema.parse({ filter: '"all"', isRead: 'false', ids: '["a","b"]', q: 'план' })).toEqual({
      filter: 'all',
      isRead: false,
      ids: ['a', 'b'],
      q: 'план',
    });
    expect(schema.parse({ filter: 'read' })).toEqual({ filter: 'read' });
    expect(schema.safeParse({ filter: '"other"' }).success).toBe(false);
  });
});
