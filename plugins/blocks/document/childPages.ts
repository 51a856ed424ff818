import { wireElementSchema, type WireElement } from '../../../schema/element';
import { api, elementUrl } from '../../../src/app/api';

/**
 * The children of a page, fetched once per page however many document blocks ask
 * (GET element/{id}/children: it does not count as a visit, unlike GET element/{id}).
 */
const requests = new Map<string, Promise<WireElement[]>>();

export function loadChildPages(parentId: string): Promise<WireElement[]> {
  let request = requests.get(parentId);
  if (!request) {
    request = api<unknown[]>(`${elementUrl(parentId)}/children`).then(({ data }) =>
      data.flatMap((page) => {
        const result = wireElementSchema.safeParse(page);
        return result.success ? [result.data] : [];
      }),
    );
    // A failed or finished request may be asked again later (pages change).
    request.finally(() => requests.delete(parentId)).catch(() => undefined);
    requests.set(parentId, request);
  }
  return request;
}
