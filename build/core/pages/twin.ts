// Small builders for the Markdown twins (D21): a title, the facts as a short
// list, the body, and links to related twins. Twins use absolute URLs, since
// an agent often reads one without the page around it.
import { mdText } from '../markdown-text.js';

/** A fact line's value: null, undefined and empty lists are left out. */
export type Fact = [label: string, value: string | null | undefined];

export function facts(list: readonly Fact[]): string {
  return list
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([label, value]) => `- ${label}: ${value}`)
    .join('\n');
}

export function bullets(items: readonly string[]): string {
  return items.map((i) => `- ${i}`).join('\n');
}

/** Joins the blocks of a twin with blank lines; empty blocks are skipped. */
export function twin(title: string, ...blocks: (string | null | undefined | false)[]): string {
  const parts = [`# ${mdText(title)}`, ...blocks.filter((b): b is string => typeof b === 'string' && b.trim() !== '').map((b) => b.trim())];
  return `${parts.join('\n\n')}\n`;
}

export function section(heading: string, ...blocks: (string | null | undefined | false)[]): string | null {
  const body = blocks.filter((b): b is string => typeof b === 'string' && b.trim() !== '').map((b) => b.trim());
  return body.length ? [`## ${mdText(heading)}`, ...body].join('\n\n') : null;
}
