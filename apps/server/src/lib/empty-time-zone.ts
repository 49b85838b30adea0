// TZ= (empty) means the default, as for every setting: the system's zone. Node's ICU reads an empty TZ as the zone
// "Etc/Unknown", which no schedule can use, so the process drops it before any module reads the time; Node then reads
// the zone of /etc/localtime again. Imported by server.ts right after the signal handlers.
if (process.env.TZ !== undefined && process.env.TZ.trim() === '') delete process.env.TZ;

export {};
