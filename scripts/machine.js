// The machine a measurement ran on, as `npm run bench` (bench/run.js) and
// `npm run reliability` (scripts/reliability.js) each report it.
import { existsSync, readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';

/** The processor, cores, memory, Node, and the system's name and kernel. */
export function machineFacts() {
  const osName =
    /PRETTY_NAME="?([^"\n]+)"?/.exec(existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '')?.[1] ?? process.platform;
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    ramGiB: totalmem() / 2 ** 30,
    node: process.version,
    osName,
    kernel: release(),
  };
}
