// Hand-built multipart/form-data bodies for inject(): exact control over parts and bytes.
import { randomBytes } from 'node:crypto'

interface FilePart {
  readonly name: string
  readonly filename?: string
  readonly contentType?: string
  readonly bytes: Buffer
}

/** A multipart/form-data body for inject(): text fields first, then files. */
export function multipartBody(fields: Record<string, string>, files: readonly FilePart[] = []) {
  const boundary = `----vitrina${randomBytes(8).toString('hex')}`
  const chunks: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename ?? 'file.bin'}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    )
    chunks.push(file.bytes, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

/** The owner sends a price list file to the back office: its preview, or with `confirm` its apply. */
export function uploadPriceList(
  app: { inject: (options: object) => Promise<any> },
  auth: Record<string, string>,
  file: Buffer,
  confirm?: string,
) {
  const body = multipartBody(confirm ? { confirm } : {}, [{ name: 'file', filename: 'p.csv', bytes: file }])
  return app.inject({
    method: 'POST',
    url: `/api/admin/price-list/${confirm ? 'apply' : 'preview'}`,
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  })
}

/** The write API's multipart form: `data` as its JSON field, sent with `auth` (the admin token). */
export function sendRecord(
  app: { inject: (options: object) => Promise<{ statusCode: number; body: string }> },
  auth: Record<string, string>,
  method: 'POST' | 'PATCH',
  url: string,
  data: unknown,
) {
  const body = multipartBody({ data: JSON.stringify(data) })
  return app.inject({ method, url, headers: { ...auth, ...body.headers }, payload: body.payload })
}
