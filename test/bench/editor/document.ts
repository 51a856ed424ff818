/**
 * The benchmark document (shared/design/BENCH-METHOD.md, "Document"): N blocks of about 60
 * characters of words from a fixed seed; about 10 % headings, 20 % bulleted items in runs of 3–5,
 * the rest paragraphs. The typing target is the top-level paragraph nearest block N/2; its text
 * starts with a unique prefix. Every configuration builds its page from this one list.
 */

export type BenchBlockKind = 'p' | 'h1' | 'h2' | 'h3' | 'li';

export interface BenchBlock {
  /** Stable id, the same in every configuration (`b<index>`). */
  id: string;
  kind: BenchBlockKind;
  text: string;
}

export interface BenchDocument {
  blocks: BenchBlock[];
  /** Index of the typing target in `blocks`. */
  targetIndex: number;
  targetId: string;
}

export const TARGET_PREFIX = 'QZXTARGET';
const SEED = 20261122;

const WORDS = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna ' +
  'aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute ' +
  'irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident ' +
  'sunt culpa qui officia deserunt mollit anim id est laborum page block editor document heading paragraph list item'
).split(' ');

/** mulberry32: a small seeded PRNG, so every run and configuration gets the same document. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(next: () => number, length: number): string {
  const words: string[] = [];
  let size = 0;
  while (size < length) {
    const word = WORDS[Math.floor(next() * WORDS.length)];
    words.push(word);
    size += word.length + 1;
  }
  const text = words.join(' ');
  return text[0].toUpperCase() + text.slice(1) + '.';
}

export function generateDocument(count: number): BenchDocument {
  const next = random(SEED ^ count);
  const kinds: BenchBlockKind[] = [];
  while (kinds.length < count) {
    const roll = next();
    // Per draw: 11.5 % a heading, 6 % a run of 3–5 items (4 on average): about 10 % and 20 % of blocks.
    if (roll < 0.115) kinds.push((['h1', 'h2', 'h3'] as const)[Math.floor(next() * 3)]);
    else if (roll < 0.175) {
      const run = 3 + Math.floor(next() * 3);
      for (let i = 0; i < run; i++) kinds.push('li');
    } else kinds.push('p');
  }
  kinds.length = count;
  const blocks = kinds.map((kind, index) => ({ id: `b${index}`, kind, text: sentence(next, kind === 'p' || kind === 'li' ? 56 : 28) }));
  let targetIndex = -1;
  for (let distance = 0; targetIndex < 0 && distance < count; distance++) {
    for (const index of [Math.floor(count / 2) - distance, Math.floor(count / 2) + distance]) {
      if (targetIndex < 0 && blocks[index]?.kind === 'p') targetIndex = index;
    }
  }
  const target = blocks[targetIndex];
  // The prefix makes the target unique; the caret goes at character 30, inside the words.
  target.text = `${TARGET_PREFIX} ${target.text}`.slice(0, 64).trimEnd();
  return { blocks, targetIndex, targetId: target.id };
}

/** The 50 characters typed into the target (US-keyboard characters only, so each is a real keydown). */
export const TYPED_SENTENCE = 'The quick brown fox jumps over the lazy dog again.';
