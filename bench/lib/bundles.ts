import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// Bundle sizes as a browser downloads them (gzip level 9, as size-limit counts). The console's
// initial load is what its index.html asks for before any route code: the entry scripts, the
// scripts it modulepreloads and the stylesheets, linked or written into the page.

export interface FileSize {
  file: string;
  bytes: number;
  gzip: number;
}

export interface BundleResult {
  console?: {
    js: FileSize[];
    css: FileSize[];
    jsGzip: number;
    cssGzip: number;
    /** The page's module scripts (the boot entry and the console's own), in order. */
    entries: string[];
  };
  widgets: FileSize[];
  missing: string[];
}

function sizeOf(dir: string, file: string): FileSize {
  return sized(file, readFileSync(path.join(dir, file)));
}

function sized(file: string, content: Buffer): FileSize {
  return { file, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length };
}

/** The stylesheets written into the page (`<style>` elements), in order. */
export function inlineStyles(html: string): string[] {
  return [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
}

/** The module scripts, modulepreloads and stylesheets named by the built index.html. */
export function initialAssets(html: string): { js: string[]; css: string[]; entries: string[] } {
  const js: string[] = [];
  const css: string[] = [];
  const entries: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
    if (tag.startsWith('<script') && attribute('type') === 'module') {
      const src = attribute('src');
      if (src) {
        js.push(src);
        entries.push(src);
      }
    } else if (tag.startsWith('<link')) {
      const rel = attribute('rel');
      const href = attribute('href');
      if (href && rel === 'modulepreload') js.push(href);
      if (href && rel === 'stylesheet') css.push(href);
    }
  }
  return { js, css, entries };
}

const total = (sizes: FileSize[]) => sizes.reduce((sum, s) => sum + s.gzip, 0);

export function measureBundles(root: string): BundleResult {
  const result: BundleResult = { widgets: [], missing: [] };
  const consoleDir = path.join(root, 'packages/console/dist');
  const indexHtml = path.join(consoleDir, 'index.html');
  if (existsSync(indexHtml)) {
    const html = readFileSync(indexHtml, 'utf8');
    const assets = initialAssets(html);
    const local = (href: string) => href.replace(/^\//, '');
    const js = assets.js.map((href) => sizeOf(consoleDir, local(href)));
    const css = [
      ...assets.css.map((href) => sizeOf(consoleDir, local(href))),
      ...inlineStyles(html).map((style, i) => sized(`index.html <style> ${i + 1}`, Buffer.from(style))),
    ];
    result.console = {
      js,
      css,
      jsGzip: total(js),
      cssGzip: total(css),
      entries: assets.entries.map(local),
    };
  } else {
    result.missing.push('packages/console/dist/index.html');
  }
  const widgetsDir = path.join(root, 'packages/widgets/dist');
  if (existsSync(widgetsDir)) {
    const scripts = readdirSync(widgetsDir)
      .filter((f) => /^wellrest-.*\.js$/.test(f))
      .sort();
    result.widgets = scripts.map((file) => sizeOf(widgetsDir, file));
  }
  if (result.widgets.length === 0) result.missing.push('packages/widgets/dist/wellrest-*.js');
  return result;
}
