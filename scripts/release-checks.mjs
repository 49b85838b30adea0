// What a release must have before an archive is built: a CHANGELOG.md section for package.json's version (with its
// date and at least one change), and the files every shipped document links to (README.md's links, followed through
// the Markdown files they reach), so the archive's docs have no dead links.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The section of `changelog` for `version`: `## [VERSION] - YYYY-MM-DD` (an en or em dash also reads) up to the next
 * `## ` heading. Returns { date, changes } or null when there is none, or it has no date or no change listed.
 */
export function changelogSection(changelog, version) {
  const heading = new RegExp(`^## \\[${escapeRegExp(version)}\\] [-–—] (\\d{4}-\\d{2}-\\d{2})\\s*$`, 'm');
  const found = heading.exec(changelog);
  if (!found) return null;
  const rest = changelog.slice(found.index + found[0].length);
  const next = rest.search(/^## /m);
  const body = next === -1 ? rest : rest.slice(0, next);
  const changes = body.split('\n').filter((line) => /^\s*[-*] \S/.test(line)).length;
  return changes > 0 ? { date: found[1], changes } : null;
}

/** Throws naming the version when CHANGELOG.md at `root` has no dated section with changes for package.json's version. */
export function assertChangelogHasVersion(root) {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const changelog = existsSync(path.join(root, 'CHANGELOG.md')) ? readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8') : '';
  if (!changelogSection(changelog, version)) {
    throw new Error(
      `release refused: CHANGELOG.md has no section for version ${version} (package.json). Move the changes under ` +
        `[Unreleased] into "## [${version}] - YYYY-MM-DD", or bump the version in package.json.`,
    );
  }
  return version;
}

/** The local targets of the links in one Markdown text (links, images, href/src attributes), relative to `fromDir`. */
export function localLinks(markdown, fromDir) {
  const targets = [
    ...markdown.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
    ...markdown.matchAll(/\b(?:src|href)="([^"]+)"/g),
  ].map((match) => match[1]);
  return [
    ...new Set(
      targets
        .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && !target.startsWith('//'))
        .map((target) => path.posix.normalize(path.posix.join(fromDir, decodeURI(target.split('#')[0].split('?')[0])))),
    ),
  ];
}

/** A document a reader opens (text, pictures, the deploy examples), not a source file a doc points into. */
export const isDoc = (target) =>
  /\.(md|txt|png|jpe?g|gif|svg|webp|pdf)$/i.test(target) || /^(docs|deploy)(\/|$)/.test(target);

/**
 * Every document (isDoc; relative to `root`) that `start` links to, followed through the Markdown files it reaches,
 * `start` included. Throws naming the links whose target is missing or outside `root`, documents or not.
 */
export function linkedDocs(root, start = 'README.md') {
  const found = new Set([start]);
  const missing = [];
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    const targets = localLinks(readFileSync(path.join(root, file), 'utf8'), path.posix.dirname(file));
    for (const target of targets) {
      if (found.has(target)) continue;
      if (target.startsWith('..') || !existsSync(path.join(root, target))) {
        missing.push(`${file} -> ${target}`);
        continue;
      }
      found.add(target);
      if (target.endsWith('.md')) queue.push(target);
    }
  }
  if (missing.length) throw new Error(`release refused: documents link to files that do not exist: ${missing.join(', ')}`);
  return [...found].filter(isDoc).sort();
}
