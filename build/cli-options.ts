// What each CLI option accepts: its value parsed, or the usage error (exit 2)
// that names the value and the fix; --content's input error is exit 1 (D1).
import { InvalidArgumentError } from 'commander';
import { contentFolderMistake } from './content/load.js';
import { isSiteUrl } from './content/site-config.js';
import { parseHosts, type Host } from './emit/hosts/limits.js';

/** The build clock: --now, else SOURCE_DATE_EPOCH, else the current time (D1). */
export function buildClock(now: string | undefined, env: NodeJS.ProcessEnv = process.env): Date {
  if (now !== undefined) return parseNow(now);
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && epoch !== '') {
    if (!/^\d+$/.test(epoch)) throw new InvalidArgumentError(`SOURCE_DATE_EPOCH must be whole seconds since 1970, not "${epoch}".`);
    return new Date(Number(epoch) * 1000);
  }
  return new Date();
}

function parseNow(value: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError(`"${value}" is not an ISO-8601 date or time. Use e.g. --now 2026-03-14 or --now 2026-03-14T09:00:00Z.`);
  }
  return date;
}

export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError(`"${value}" is not a port number (0–65535).`);
  return n;
}

/** --port, else $PORT (named when it is wrong, since the user typed no port), else 8080. */
export function portOf(option: number | undefined): number {
  const env = process.env.PORT;
  if (option !== undefined || !env) return option ?? 8080;
  try {
    return parsePort(env);
  } catch {
    throw new InvalidArgumentError(`$PORT is "${env}", which is not a port number (0–65535). Unset it, or pass --port.`);
  }
}

/** --host, repeatable and comma-separated: the hosts whose limits fail the build (hosts/limits.ts). */
export function collectHosts(value: string, previous: Host[] = []): Host[] {
  try {
    return [...new Set([...previous, ...parseHosts([value])])];
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** --site-url: the same rule as site.yaml's site_url, refused as a usage error before anything is read. */
export function parseSiteUrl(value: string): string {
  if (isSiteUrl(value)) return value;
  const trimmed = value.replace(/\/+$/, '');
  const fix = trimmed !== value && isSiteUrl(trimmed) ? `--site-url ${trimmed}` : '--site-url https://ada.example';
  throw new InvalidArgumentError(`"${value}" is not an absolute http(s) URL without a trailing slash. Pass e.g. ${fix}.`);
}

/** --content, refused when it plainly is not a content folder (content/load.ts): an input error, exit 1 (D1). */
export function contentDir(dir: string): string {
  const mistake = contentFolderMistake(dir);
  if (mistake) throw new Error(mistake);
  return dir;
}

export function parseCount(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 256) throw new InvalidArgumentError(`"${value}" is not a number of threads (0–256).`);
  return Number(value);
}
