// The machine-readable addresses (D25–D35). Owned by the documents work.
import type { Family } from '../family.js';

export const documentsFamily: Family = {
  name: 'documents',
  respond: () => null,
  enumerate: () => [],
};
