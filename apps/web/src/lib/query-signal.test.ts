// A load TanStack Query cancels (a newer refetch of the same list, the screen left) must be aborted, not left on the
// wire: six of them fill the browser's connections to the server, and the next screen's first load waits behind them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import ts from 'typescript';
import { api } from './api-client';

const SRC = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Whether a function's first parameter destructures `signal` from the query's context. */
function takesSignal(fn: ts.SignatureDeclaration): boolean {
  const first = fn.parameters[0]?.name;
  return !!first && ts.isObjectBindingPattern(first) && first.elements.some((element) => element.name.getText() === 'signal');
}

/** The `api.get(...)` calls in a function whose last argument is not `signal`. */
function getsWithoutSignal(fn: ts.Node): ts.CallExpression[] {
  const found: ts.CallExpression[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'get' && node.expression.expression.getText() === 'api') {
      if (node.arguments.at(-1)?.getText() !== 'signal') found.push(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return found;
}

describe('every query of the web app', () => {
  it('hands its signal to the request: each queryFn takes { signal } and passes it to every api.get in it', () => {
    const offenders: string[] = [];
    let queries = 0;
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes('queryFn')) continue;
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
      const functions = new Map<string, ts.FunctionDeclaration>();
      source.forEachChild((node) => ts.isFunctionDeclaration(node) && node.name && functions.set(node.name.text, node));
      const visit = (node: ts.Node) => {
        if (ts.isPropertyAssignment(node) && node.name.getText() === 'queryFn') {
          queries++;
          const where = `${path.relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
          const value = node.initializer;
          // A named function (the session check) is looked up in its file.
          const fn = ts.isIdentifier(value) ? functions.get(value.text) : ts.isArrowFunction(value) || ts.isFunctionExpression(value) ? value : undefined;
          if (!fn) offenders.push(`${where}: not a function of this file`);
          else if (!takesSignal(fn)) offenders.push(`${where}: takes no { signal }`);
          else for (const call of getsWithoutSignal(fn)) offenders.push(`${where}: ${call.getText().slice(0, 70)} without the signal`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    // The parser finds them all (65 when this was written), not none.
    expect(queries).toBeGreaterThan(60);
    expect(offenders).toEqual([]);
  });
});

describe('api.get given a signal', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('aborts the request of a load cancelled by a newer refetch, and reports no outage for it', async () => {
    const requests: { signal: AbortSignal; answer: (body: unknown) => void }[] = [];
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      return new Promise<Response>((resolve, reject) => {
        const signal = init.signal!;
        signal.addEventListener('abort', () => reject(signal.reason));
        requests.push({ signal, answer: (body) => resolve(new Response(JSON.stringify(body), { status: 200 })) });
      });
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new QueryObserver(client, { queryKey: ['alerts', 'page'], queryFn: ({ signal }) => api.get<{ n: number }>('/alert/prisoneralerts', undefined, signal) });
    const unsubscribe = observer.subscribe(() => undefined);
    try {
      await vi.waitFor(() => expect(requests).toHaveLength(1));
      requests[0]!.answer({ n: 1 });
      await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual({ n: 1 }));

      // A live alert refetches the list; another arrives before the answer: the first refetch is cancelled.
      void client.invalidateQueries({ queryKey: ['alerts'] });
      await vi.waitFor(() => expect(requests).toHaveLength(2));
      void client.invalidateQueries({ queryKey: ['alerts'] });
      await vi.waitFor(() => expect(requests).toHaveLength(3));
      expect(requests[1]!.signal.aborted).toBe(true);
      expect(requests[2]!.signal.aborted).toBe(false);

      requests[2]!.answer({ n: 3 });
      await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual({ n: 3 }));
      // No error shown for the cancelled one ("The server cannot be reached").
      expect(observer.getCurrentResult().error).toBeNull();
    } finally {
      unsubscribe();
      client.clear();
    }
  });
});
