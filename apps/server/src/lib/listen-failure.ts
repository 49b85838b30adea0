// A port the process must listen on (the HTTP PORT, a device port such as OSMAND_PORT) that cannot be bound: a failed
// start whose message names the variable and the port (decision 056), never a process that reports ready without it.

/** Why a listen failed, in words an operator acts on; the code stays in brackets for a search. */
function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return 'another program is already listening on it (EADDRINUSE)';
  if (code === 'EACCES') return 'this user may not bind it (EACCES: ports below 1024 need privileges)';
  if (code === 'EADDRNOTAVAIL') return 'HOST is not an address of this machine (EADDRNOTAVAIL)';
  return code ? `it failed (${code})` : `it failed (${error instanceof Error ? error.message : String(error)})`;
}

export class ListenFailure extends Error {
  constructor(
    readonly variable: string,
    readonly port: number,
    what: string,
    cause: unknown,
  ) {
    super(`cannot listen on ${variable} ${port} (${what}): ${reasonOf(cause)}; the process stops`, { cause });
    this.name = 'ListenFailure';
  }
}

/** Runs `listen`, turning its failure into a ListenFailure naming the variable and the port. */
export async function listenNamed<T>(variable: string, port: number, what: string, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    throw new ListenFailure(variable, port, what, error);
  }
}
