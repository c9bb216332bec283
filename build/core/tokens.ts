// How many tokens a Markdown document costs an agent, estimated so it can
// budget its context before it fetches (D53): one token per four bytes of
// UTF-8, the usual rule of thumb for English prose with BPE tokenizers. It
// overestimates code a little and underestimates non-Latin scripts; it is a
// budget, not a count, and the same everywhere (llms.txt and X-Markdown-Tokens).

/** UTF-8 length of a string, without encoding it. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export function tokensForBytes(bytes: number): number {
  return Math.ceil(bytes / 4);
}

export function estimateTokens(text: string): number {
  return tokensForBytes(utf8Length(text));
}

/** "~1,200 tokens": two significant digits, since it is an estimate; thousands separated by commas. */
export function tokensLabel(tokens: number): string {
  const digits = String(Math.max(1, Math.round(tokens))).length;
  const step = 10 ** Math.max(0, digits - 2);
  const rounded = Math.max(1, Math.round(tokens / step) * step);
  return `~${String(rounded).replace(/\B(?=(\d{3})+$)/g, ',')} ${rounded === 1 ? 'token' : 'tokens'}`;
}
