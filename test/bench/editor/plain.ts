/**
 * plain-cv, the lower bound: a contenteditable div built with createElement, its top-level blocks
 * in `content-visibility: auto` groups of 1000. The DOM is its own model.
 */
import { runBench } from './harness';
import type { BenchBlockKind } from './document';
import './bench.css';

const TAG: Record<BenchBlockKind, string> = { p: 'p', h1: 'h2', h2: 'h3', h3: 'h4', li: 'li' };
const GROUP = 1000;
let editable: HTMLElement;

runBench('plain-cv', {
  mount(root, document_) {
    editable = document.createElement('div');
    editable.className = 'bench-editor';
    editable.contentEditable = 'true';
    editable.spellcheck = false;
    let group: HTMLElement | null = null;
    document_.blocks.forEach((block, index) => {
      if (index % GROUP === 0) {
        group = document.createElement('div');
        group.className = 'bench-group';
        editable.append(group);
      }
      const element = document.createElement(TAG[block.kind]);
      element.id = block.id;
      element.textContent = block.text;
      (group as HTMLElement).append(element);
    });
    root.append(editable);
  },
  editable: () => editable,
  targetElement: () => document.getElementById(window.bench.document.targetId),
  modelTargetText: () => (document.getElementById(window.bench.document.targetId)?.textContent ?? '').replace(/\uFEFF/g, ''),
});
