// The readers as the tracking core's fix source (composition.ts): the runtime shared by the routes (`app.readers`)
// and the MQTT subscription that opens once the server listens.
import type { FastifyInstance } from 'fastify';
import type { ListeningFixSource } from '../../tracking/ports';
import { createMqttFixSource } from './mqtt-source';
import { ReaderRuntime } from './reader-runtime';

declare module 'fastify' {
  interface FastifyInstance {
    /** The indoor readers in memory: registry, strongest-signal resolver, activity and silence (decision 067). */
    readers: ReaderRuntime;
  }
}

export function createReaderFixSource(app: FastifyInstance): ListeningFixSource {
  const runtime = new ReaderRuntime(app);
  app.decorate('readers', runtime);
  return createMqttFixSource(app, runtime);
}
