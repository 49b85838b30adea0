// A start refused for a reason a restart cannot cure (a key that does not fit the data, a schema newer than this build,
// a WEB_DIST without an app): one line naming the variable or file and what to do, status 2, which the systemd unit
// does not restart (RestartPreventExitStatus=2), like a refused configuration (exitOnConfigError).

export class StartRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefusal';
  }
}

/** The exit status of a refused configuration or start. */
export const REFUSED_START_STATUS = 2;
