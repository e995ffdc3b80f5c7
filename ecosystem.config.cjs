// PM2: `npm run build && pm2 start ecosystem.config.cjs`; `pm2 reload vitrina` for zero-downtime
// deploys. CommonJS because package.json has "type": "module" (pm2#5451).
module.exports = {
  apps: [
    {
      name: 'vitrina',
      // The compiled server (`npm run build`), no TypeScript at run time (docs/decisions/011).
      script: 'dist/node/main.mjs',
      interpreter: 'node',
      node_args: ['--enable-source-maps'],
      exec_mode: 'cluster',
      instances: 2,
      wait_ready: true, // main.ts sends 'ready' after listen()
      listen_timeout: 15000,
      kill_timeout: 10000, // SIGINT → finish in-flight requests → close the database
      max_memory_restart: '512M',
      // PORT, PUBLIC_URL, ADMIN_TOKEN … come from the environment pm2 is started in.
      env: {
        NODE_ENV: 'production',
      },
    },
  ],
}
