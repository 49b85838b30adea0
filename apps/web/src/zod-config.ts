// Imported first by main.tsx, before any schema is defined: zod probes for eval when it builds object schemas, and
// under the app's Content-Security-Policy (no eval) that probe is reported as a violation although it is caught.
import { z } from 'zod';

z.config({ jitless: true });
