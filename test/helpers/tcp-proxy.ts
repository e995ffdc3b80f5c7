// A TCP proxy the test controls, in front of a real server (the machine's PostgreSQL): `cut()`
// drops every open connection and refuses new ones, as a network outage or a database restart
// does; `heal()` lets connections through again.
import net from 'node:net'

export interface TcpProxy {
  readonly port: number
  cut(): void
  heal(): void
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>()
  let open = true
  const server = net.createServer((client) => {
    if (!open) return void client.destroy()
    const upstream = net.connect(target.port, target.host)
    sockets.add(client).add(upstream)
    const drop = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const cut = () => {
    open = false
    for (const socket of sockets) socket.destroy()
    sockets.clear()
  }
  return {
    port: (server.address() as net.AddressInfo).port,
    cut,
    heal() {
      open = true
    },
    close() {
      cut()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
