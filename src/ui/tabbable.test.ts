import { tabbables } from './tabbable';

/** The ids of the Tab stops in a fragment of HTML. */
function stops(html: string): string[] {
  document.body.innerHTML = html;
  return tabbables(document.body).map((element) => element.id);
}

test('Tab stops: the focusable, in document order, without what is taken out, disabled, hidden or inert', () => {
  expect(
    stops(`
      <button id="a">a</button>
      <button id="gone" tabindex="-1">x</button>
      <button id="off" disabled>x</button>
      <input id="secret" type="hidden">
      <div hidden><button id="in-hidden">x</button></div>
      <div inert><button id="in-inert">x</button></div>
      <div aria-hidden="true"><button id="in-aria-hidden">x</button></div>
      <div style="display: none"><a id="in-none" href="/x">x</a></div>
      <a id="link" href="/y">y</a>
      <div id="made" tabindex="0">z</div>`),
  ).toEqual(['a', 'link', 'made']);
});

test('a radio group is one stop (its checked radio, else its first)', () => {
  expect(
    stops(`<input id="r1" type="radio" name="g"><input id="r2" type="radio" name="g" checked><input id="r3" type="radio" name="g"><button id="b">b</button>`),
  ).toEqual(['r2', 'b']);
  expect(stops(`<input id="r1" type="radio" name="h"><input id="r2" type="radio" name="h">`)).toEqual(['r1']);
});

test('editable text is one stop, its root; a non-editable island in it (a database block) has its own', () => {
  // (tabindex: jsdom gives an editable root none of its own; Chromium gives it 0.)
  expect(
    stops(`
      <div id="editor" contenteditable="true" tabindex="0">
        <p>text <a id="in-text" href="/z">link</a></p>
        <div contenteditable="false"><button id="island">+ Новая строка</button></div>
      </div>`),
  ).toEqual(['editor', 'island']);
});
