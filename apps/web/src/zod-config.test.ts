// The entry sets zod's settings through its global before zod loads; this fails if zod stops reading that global.
import { expect, it } from 'vitest';

it('turns off zod’s eval probe before zod is loaded', async () => {
  await import('./zod-config');
  const { z } = await import('zod');
  expect(z.config().jitless).toBe(true);
});
