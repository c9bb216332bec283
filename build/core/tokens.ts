// How many tokens a Markdown document costs an agent, estimated so it can
// budget its context before it fetches (D53): one token per four bytes of
// UTF-8, the usual rule of thumb for English prose with BPE tokenizers. It
// overestimates code a little and underestimates non-Latin scripts; it is a
// budget, not a count, and the same everywhere (llms.txt and X-Markdown-Tokens).

const encoder = new TextEncoder();

export function estimateTokens(text: string | Uint8Array): number {
  const bytes = typeof text === 'string' ? encoder.encode(text).byteLength : text.byteLength;
  return Math.ceil(bytes / 4);
}

/** "~1,200 tokens": two significant digits, since it is an estimate; thousands separated by commas. */
export function tokensLabel(tokens: number): string {
  const digits = String(Math.max(1, Math.round(tokens))).length;
  const step = 10 ** Math.max(0, digits - 2);
  const rounded = Math.max(1, Math.round(tokens / step) * step);
  return `~${String(rounded).replace(/\B(?=(\d{3})+$)/g, ',')} ${rounded === 1 ? 'token' : 'tokens'}`;
}
