/**
 * Writes text that is still coming to the clipboard: a ClipboardItem of a promise where the browser
 * has one (it must be asked for within the person's copy; Chromium, Safari and Firefox take a
 * promise), else the text once it is there.
 */
export function writeClipboardLater(copied: Promise<{ text: string; html: string }>): Promise<void> {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    return navigator.clipboard.write([
      new ClipboardItem({
        'text/plain': copied.then(({ text }) => new Blob([text], { type: 'text/plain' })),
        'text/html': copied.then(({ html }) => new Blob([html], { type: 'text/html' })),
      }),
    ]);
  }
  return copied.then(({ text }) => navigator.clipboard.writeText(text));
}
