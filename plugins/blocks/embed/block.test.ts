/** @jest-environment jsdom */
import { wireBlockSchema } from '../../../schema/block';
import { EMBED_SANDBOX, embedBlock, embedDataSchema, embedSource } from './block';

describe('embedSource: watch/share links to the host embed address', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?t=42', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42'],
    ['https://m.youtube.com/shorts/dQw4w9WgXcQ', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://vimeo.com/76979871', 'vimeo', 'https://player.vimeo.com/video/76979871'],
    ['https://vimeo.com/channels/staffpicks/76979871', 'vimeo', 'https://player.vimeo.com/video/76979871'],
    ['https://rutube.ru/video/c6cc4d620b1d4338901770a44b3e82f4/', 'rutube', 'https://rutube.ru/play/embed/c6cc4d620b1d4338901770a44b3e82f4'],
    ['https://vk.com/video-12345_456239017', 'vk', 'https://vk.com/video_ext.php?oid=-12345&id=456239017'],
    ['https://vkvideo.ru/video-12345_456239017', 'vk', 'https://vk.com/video_ext.php?oid=-12345&id=456239017'],
    ['https://vk.com/wall-1_2?z=video-12345_678', 'vk', 'https://vk.com/video_ext.php?oid=-12345&id=678'],
    ['https://yandex.ru/maps/213/moscow/?ll=37.62%2C55.75&z=10', 'yandexMaps', 'https://yandex.ru/map-widget/v1/?ll=37.62%2C55.75&z=10'],
    ['https://www.google.com/maps/place/Eiffel+Tower/@48.85,2.29,17z', 'googleMaps', 'https://maps.google.com/maps?q=Eiffel%20Tower&output=embed'],
    ['https://www.google.com/maps/@55.75,37.61,12z', 'googleMaps', 'https://maps.google.com/maps?ll=55.75,37.61&z=12&output=embed'],
    ['https://docs.google.com/document/d/1AbC_d-E/edit?usp=sharing', 'googleDocs', 'https://docs.google.com/document/d/1AbC_d-E/preview'],
    ['https://docs.google.com/spreadsheets/d/1XyZ/edit#gid=0', 'googleDocs', 'https://docs.google.com/spreadsheets/d/1XyZ/preview'],
    ['https://docs.google.com/presentation/d/1Sl/edit', 'googleDocs', 'https://docs.google.com/presentation/d/1Sl/embed'],
    [
      'https://www.figma.com/design/AbC123/My-file?node-id=0-1',
      'figma',
      `https://www.figma.com/embed?embed_host=share&url=${encodeURIComponent('https://www.figma.com/design/AbC123/My-file?node-id=0-1')}`,
    ],
    ['https://miro.com/app/board/uXjVO_ab12=/', 'miro', 'https://miro.com/app/live-embed/uXjVO_ab12=/'],
    ['https://codepen.io/someone/pen/AbCdEf', 'codepen', 'https://codepen.io/someone/embed/AbCdEf?default-tab=result'],
    ['https://www.loom.com/share/0123abcd', 'loom', 'https://www.loom.com/embed/0123abcd'],
  ])('%s', (url, provider, src) => {
    expect(embedSource(url)).toEqual({ provider, src });
  });

  it.each([
    'https://example.com/watch?v=dQw4w9WgXcQ',
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'https://evilyoutube.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/watch?v=short',
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    'https://user:pass@www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://vimeo.com/about',
    'https://docs.google.com/forms/d/1/viewform',
    'https://rutube.ru/video/not-an-id/',
    'https://yandex.ru/maps/-/CDaXb4~m',
    'not a url',
  ])('shows %s as a link, not a frame', (url) => {
    expect(embedSource(url)).toBeNull();
  });

  it('builds the frame address from the video id alone, never from the rest of the link', () => {
    expect(embedSource('https://www.youtube.com/watch?v=dQw4w9WgXcQ&x=1#"><script>')?.src).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
  });
});

describe('embed block', () => {
  it('has the spec defaults and the /embed shortcut', () => {
    expect(embedBlock.defaultData!()).toEqual({ url: null, scale: 1, align: 'center' });
    expect(embedBlock.shortcuts).toEqual(['/embed']);
    expect(embedBlock.isVoid).toBe(true);
  });

  it('reads a url Slate dropped (set to null) as null, and a retyped text block as the defaults', () => {
    const element = { type: 'embedBlock', uid: 'b', version: 1, children: [{ text: '' }], scale: 0.5, align: 'left' } as never;
    expect(embedBlock.toWireData(element)).toEqual({ url: null, scale: 0.5, align: 'left' });
    const retyped = { type: 'embedBlock', uid: 'b', version: 1, children: [{ text: '' }] } as never;
    expect(embedBlock.toWireData(retyped)).toEqual({ url: null, scale: 1, align: 'center' });
  });

  it('refuses any url but http(s), as the server does (422)', () => {
    expect(embedDataSchema.safeParse({ url: 'https://example.com/', scale: 1, align: 'center' }).success).toBe(true);
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'ftp://example.com/', 'example.com', '']) {
      expect(embedDataSchema.safeParse({ url, scale: 1, align: 'center' }).success).toBe(false);
    }
    const block = { id: 'b1', contentType: 'Block', pageId: 'p1', type: 'embed', version: 1, parentId: null, placeAfter: null };
    const result = wireBlockSchema.safeParse({ ...block, data: { url: 'javascript:alert(1)', scale: 1, align: 'center' } });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].path).toEqual(['data', 'url']);
  });

  it('copies an allowed embed as a sandboxed iframe and another link as <a>, and pastes them back', () => {
    const data = { url: 'https://youtu.be/dQw4w9WgXcQ', scale: 0.5, align: 'left' as const };
    const html = embedBlock.html!.serialize(data, '');
    expect(html).toBe(
      `<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" data-embed-url="https://youtu.be/dQw4w9WgXcQ" data-scale="0.5" data-align="left" sandbox="${EMBED_SANDBOX}" referrerpolicy="no-referrer" loading="lazy"></iframe>`,
    );
    const template = document.createElement('template');
    template.innerHTML = html;
    expect(embedBlock.html!.parse[0].read(template.content.firstElementChild!, [])).toEqual(data);

    const other = { url: 'https://example.com/a?b=<c>', scale: 1, align: 'center' as const };
    const link = embedBlock.html!.serialize(other, '');
    expect(link.startsWith('<a href="https://example.com/a?b=&lt;c&gt;"')).toBe(true);
    template.innerHTML = link;
    expect(embedBlock.html!.parse[0].read(template.content.firstElementChild!, [])).toEqual(other);
  });

  it('takes a pasted iframe of an allowed host only', () => {
    const template = document.createElement('template');
    template.innerHTML = '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>';
    expect(embedBlock.html!.parse[0].read(template.content.firstElementChild!, [])).toEqual({
      url: 'https://www.youtube.com/embed/dQw4w9WgXcQ',
      scale: 1,
      align: 'center',
    });
    template.innerHTML = '<iframe src="https://tracker.example/frame"></iframe>';
    expect(embedBlock.html!.parse[0].read(template.content.firstElementChild!, [])).toBeNull();
    template.innerHTML = '<a href="https://example.com/">x</a>';
    expect(template.content.firstElementChild!.matches(embedBlock.html!.parse[0].selector)).toBe(false);
  });
});
