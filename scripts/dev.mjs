// `npm run dev`: esbuild rebuilds the islands on change while node --watch restarts the server.
import { spawn } from 'node:child_process';

const children = [
  spawn(process.execPath, ['esbuild.config.mjs', '--watch'], { stdio: 'inherit' }),
  spawn(process.execPath, ['--watch', '--import', 'tsx', 'src/server.ts'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
