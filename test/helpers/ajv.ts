// The JSON Schema validator the tests check real responses with: Ajv, an
// implementation independent of folio, with the formats the schemas of
// build/core/schemas.ts use (date, uri, email). Lenient about keywords it does
// not know (`strict: false`), as the responses' schemas carry annotations;
// test/helpers/openapi.ts makes its own strict one for the OpenAPI document.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** ajv-formats is CommonJS; its default export is the plugin function. */
export const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

export const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
