// Types of scripts/stylesheet.js, for the test that checks the generated module.
export const CSS_PATH: string;
export const MODULE_PATH: string;
export function stylesheetModule(css: string): string;
export function writeStylesheetModule(): boolean;
