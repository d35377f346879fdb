// What a page of the built client loads before it can run: the HTML's module script, its modulepreloads and
// stylesheets, plus every chunk those scripts import statically (never the lazy `import()` ones), each measured
// as bytes on disk and gzip (level 9, as a server or CDN would send it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const ATTRIBUTE = /<(script|link)\b([^>]*)>/g;
/** Static imports in a minified chunk: `import{a}from"./x.js"`, `import"./x.js"`, `export{a}from"./x.js"`. */
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w${},*\s]+?\s*from\s*)?["'](\.\/[^"']+\.js)["']/g;

function attribute(attributes, name) {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1] ?? null;
}

/** The files `htmlFile` (in `distDir`) loads up front, with their sizes. */
export function initialWeight(distDir, htmlFile) {
  const html = readFileSync(join(distDir, htmlFile), 'utf8');
  const wanted = new Set();
  for (const [, tag, attributes] of html.matchAll(ATTRIBUTE)) {
    const rel = attribute(attributes, 'rel');
    const path =
      tag === 'script'
        ? attribute(attributes, 'src')
        : rel === 'modulepreload' || rel === 'stylesheet'
          ? attribute(attributes, 'href')
          : null;
    if (path?.startsWith('/assets/')) wanted.add(path.slice(1));
  }
  const queue = [...wanted].filter((path) => path.endsWith('.js'));
  while (queue.length) {
    const file = queue.pop();
    const text = readFileSync(join(distDir, file), 'utf8');
    for (const [, relative] of text.matchAll(STATIC_IMPORT)) {
      const path = `assets/${relative.slice(2)}`;
      if (!wanted.has(path)) {
        wanted.add(path);
        queue.push(path);
      }
    }
  }
  const files = [...wanted].map((file) => {
    const bytes = readFileSync(join(distDir, file));
    return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const sum = (kind) => files.filter((entry) => entry.file.endsWith(kind)).reduce((total, entry) => total + entry.gzip, 0);
  return { files, jsGzip: sum('.js'), cssGzip: sum('.css') };
}

// `node bench/lib/bundle-weight.mjs [distDir]`: prints both pages' weights.
if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = process.argv[2] ?? join(import.meta.dirname, '../../client/dist');
  for (const page of ['index.html', 'status.html']) {
    const weight = initialWeight(dist, page);
    console.log(
      `${page}: JS ${(weight.jsGzip / 1024).toFixed(1)} KiB gzip, CSS ${(weight.cssGzip / 1024).toFixed(1)} KiB gzip, ${weight.files.length} files`,
    );
    for (const entry of weight.files.sort((a, b) => b.gzip - a.gzip))
      console.log(`  ${entry.file.padEnd(50)} ${(entry.gzip / 1024).toFixed(1).padStart(7)} KiB`);
  }
}
