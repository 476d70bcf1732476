/** Whether the ports a start needs are free, checked before it launches anything. */
import { createServer } from 'node:net'

export interface PortNeed {
  /** The setting that chose the port (PORT, DASHBOARD_PORT, EMBEDDED_REDIS_PORT). */
  setting: string
  host: string
  port: number
}

/** Whether something already listens on host:port (0 is always free: the system picks one). */
export async function portTaken(host: string, port: number): Promise<boolean> {
  if (port === 0) return false
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE' || err.code === 'EACCES'))
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(false)))
  })
}

/** A one-line refusal naming the first taken port and what to do, or undefined when all are free. */
export async function takenPortMessage(needs: PortNeed[]): Promise<string | undefined> {
  for (const need of needs) {
    if (await portTaken(need.host, need.port)) {
      return `port ${need.port} on ${need.host} (${need.setting}) is already in use: stop what listens there (is another npm start running?), or set ${need.setting} to a free port`
    }
  }
  return undefined
}
