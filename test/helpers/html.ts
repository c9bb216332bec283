// Reading served HTML the way a browser does (parse5 follows the HTML
// standard's tokeniser and tree builder), for the pages and safety tests.
import { parse, type DefaultTreeAdapterMap } from 'parse5';

export type Document = DefaultTreeAdapterMap['document'];
export type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

export function parseHtml(text: string): Document {
  return parse(text);
}

/** Every element in document order, template contents included. */
export function elements(root: ParentNode): Element[] {
  const out: Element[] = [];
  const walk = (node: ParentNode) => {
    for (const child of node.childNodes) {
      if ('tagName' in child) {
        out.push(child);
        walk(child);
        if (child.tagName === 'template' && 'content' in child) walk((child as DefaultTreeAdapterMap['template']).content);
      }
    }
  };
  walk(root);
  return out;
}

export function attr(el: Element, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

export function byTag(root: ParentNode, tag: string): Element[] {
  return elements(root).filter((e) => e.tagName === tag);
}

export function textOf(node: ParentNode): string {
  let out = '';
  for (const child of node.childNodes) {
    if (child.nodeName === '#text') out += (child as DefaultTreeAdapterMap['textNode']).value;
    else if ('childNodes' in child) out += textOf(child as ParentNode);
  }
  return out;
}
