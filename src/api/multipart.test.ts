import multipart from '@fastify/multipart'
import { fastify } from 'fastify'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpClient } from './http-client'
import type { HttpClient } from './http-client'
import { fromMultipartParts, toFormData } from './multipart'

interface SeenFile {
  path: string
  filename: string
  mimetype: string
  text: string
}

interface Seen {
  contentType: string
  fields: Array<{ name: string; value: unknown }>
  files: SeenFile[]
  rebuilt: Record<string, unknown>
}

const entries = (form: FormData) => [...form.entries()].map(([name, value]) => [name, value])

describe('toFormData', () => {
  it('puts every non-file value into one data field as JSON', () => {
    const form = toFormData({ title: 'Дрель', sort: 2, hidden: false, meta: { tags: ['a', 'b'] }, none: null })
    expect(entries(form)).toEqual([
      ['data', '{"title":"Дрель","sort":2,"hidden":false,"meta":{"tags":["a","b"]},"none":null}'],
    ])
  })

  it('sends each file as its own entry named by its dot path and removes it from the JSON', () => {
    const image = new Blob(['png'], { type: 'image/png' })
    const photo = new File(['jpg'], 'фото.jpg', { type: 'image/jpeg' })
    const form = toFormData({
      product: { image, price: 100 },
      sliderItems: [{ image: photo, title: 'Слайд' }],
      gallery: [image, photo],
    })
    expect(form.get('data')).toBe('{"product":{"price":100},"sliderItems":[{"title":"Слайд"}],"gallery":[null,null]}')
    expect(form.getAll('product.image')).toHaveLength(1)
    expect((form.get('sliderItems.0.image') as File).name).toBe('фото.jpg')
    expect(form.get('gallery.1')).toBeInstanceOf(Blob)
    expect([...form.keys()]).toEqual(['data', 'product.image', 'sliderItems.0.image', 'gallery.0', 'gallery.1'])
  })

  it('writes a Date through its JSON form', () => {
    expect(toFormData({ at: new Date('2024-05-01T10:00:00.000Z') }).get('data')).toBe(
      '{"at":"2024-05-01T10:00:00.000Z"}',
    )
  })

  it('refuses a file whose path would read back differently', () => {
    const blob = new Blob(['x'])
    expect(() => toFormData({ 'a.b': blob })).toThrow(TypeError)
    expect(() => toFormData({ 'a.b': { image: blob } })).toThrow(TypeError)
    expect(() => toFormData({ data: blob })).toThrow(TypeError)
  })
})

describe('fromMultipartParts', () => {
  it('sets each file back at its dot path', () => {
    const values = fromMultipartParts(
      '{"product":{"price":100},"sliderItems":[{"title":"Слайд"}],"gallery":[null,null]}',
      [
        { path: 'product.image', value: 'p' },
        { path: 'sliderItems.0.image', value: 's' },
        { path: 'gallery.1', value: 'g1' },
        { path: 'gallery.0', value: 'g0' },
      ],
    )
    expect(values).toEqual({
      product: { price: 100, image: 'p' },
      sliderItems: [{ title: 'Слайд', image: 's' }],
      gallery: ['g0', 'g1'],
    })
  })

  it('undoes toFormData for nested objects, arrays and files', () => {
    // A File, not a Blob: FormData hands a bare Blob back wrapped in a File named 'blob'.
    const image = new File(['x'], 'x.png')
    const values = {
      title: 'Дрель',
      product: { image, price: 100 },
      sliderItems: [{ image }, { title: 'без картинки' }],
    }
    const form = toFormData(values)
    const files = [...form.entries()].filter(([name]) => name !== 'data').map(([path, value]) => ({ path, value }))
    expect(fromMultipartParts(form.get('data') as string, files)).toEqual(values)
  })

  it('creates missing containers, an array for a numeric segment', () => {
    expect(
      fromMultipartParts(undefined, [
        { path: 'a.0.b', value: 1 },
        { path: 'c', value: 2 },
      ]),
    ).toEqual({ a: [{ b: 1 }], c: 2 })
  })

  it.each([
    ['a data field that is not JSON', 'nope', 'a'],
    ['a data field that is not an object', '[1]', 'a'],
    ['a path through __proto__', '{}', '__proto__.polluted'],
    ['a path through constructor', '{}', 'a.constructor.prototype'],
    ['a path named data', '{}', 'data'],
    ['an empty segment', '{}', 'a..b'],
    ['a gap in an array', '{"a":[]}', 'a.5'],
    ['a word index into an array', '{"a":[]}', 'a.x'],
    ['a path through a string', '{"title":"Дрель"}', 'title.image'],
  ])('refuses %s', (_case, data, path) => {
    expect(() => fromMultipartParts(data, [{ path, value: 1 }])).toThrow(TypeError)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('a multipart body sent to Fastify with @fastify/multipart', () => {
  let app: FastifyInstance
  let client: HttpClient

  beforeAll(async () => {
    app = fastify()
    await app.register(multipart)
    app.post('/upload', async (req) => {
      const fields: Seen['fields'] = []
      const files: SeenFile[] = []
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          const buffer = await part.toBuffer()
          files.push({
            path: part.fieldname,
            filename: part.filename,
            mimetype: part.mimetype,
            text: buffer.toString('utf8'),
          })
        } else {
          fields.push({ name: part.fieldname, value: part.value })
        }
      }
      const data = fields.find((field) => field.name === 'data')?.value
      const rebuilt = fromMultipartParts(
        typeof data === 'string' ? data : undefined,
        files.map((file) => ({ path: file.path, value: file })),
      )
      return { contentType: req.headers['content-type'], fields, files, rebuilt }
    })
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
    client = createHttpClient({ baseUrl })
  })

  afterAll(() => app.close())

  it('delivers one data field with the JSON and one file part per dot path', async () => {
    const seen = await client.request<Seen>('POST', '/upload', {
      body: toFormData({
        title: 'Дрель',
        product: { image: new Blob(['изображение товара'], { type: 'image/png' }), price: 100 },
        sliderItems: [{ image: new File(['слайд'], 'слайд.jpg', { type: 'image/jpeg' }) }],
      }),
    })
    expect(seen.contentType).toMatch(/^multipart\/form-data; boundary=/)
    expect(seen.fields).toEqual([
      { name: 'data', value: '{"title":"Дрель","product":{"price":100},"sliderItems":[{}]}' },
    ])
    expect(seen.files).toEqual([
      { path: 'product.image', filename: 'blob', mimetype: 'image/png', text: 'изображение товара' },
      { path: 'sliderItems.0.image', filename: 'слайд.jpg', mimetype: 'image/jpeg', text: 'слайд' },
    ])
  })

  it('rebuilds the values on the server with fromMultipartParts', async () => {
    const seen = await client.request<Seen>('POST', '/upload', {
      body: toFormData({
        title: 'Дрель',
        product: { image: new Blob(['x']), price: 100 },
        sliderItems: [{ image: new Blob(['y']) }],
      }),
    })
    expect(seen.rebuilt).toMatchObject({
      title: 'Дрель',
      product: { price: 100, image: { path: 'product.image', text: 'x' } },
      sliderItems: [{ image: { path: 'sliderItems.0.image', text: 'y' } }],
    })
  })

  it('is sent as multipart by the built-in fetch too', async () => {
    const native = createHttpClient({ baseUrl: app.listeningOrigin })
    const seen = await native.request<Seen>('POST', '/upload', { body: toFormData({ a: { file: new Blob(['z']) } }) })
    expect(seen.fields).toEqual([{ name: 'data', value: '{"a":{}}' }])
    expect(seen.files.map((file) => file.path)).toEqual(['a.file'])
  })
})
