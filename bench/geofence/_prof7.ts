process.argv.push('--seconds', '1');
await import('./run');
