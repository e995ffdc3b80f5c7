// Content writes through the real client (src/api + undici) against a real server socket.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError, createHttpClient } from '../../src/api/http-client'
import { createModelApi, type ModelApi } from '../../src/api/model-api'
import { undiciFetch } from '../../server/tools/undici-fetch'
import { createAdminCheck } from '../../server/admin/access'
import { buildTestApp, decodeEntities, titleOf, type TestApp } from '../helpers/build-test-app'
import { ADMIN_TOKEN, jpegImage, pixelBombPng, pngImage } from './helpers'
import { multipartBody } from '../helpers/multipart'

let t: TestApp
let api: ModelApi
let baseUrl: string
let powerToolsId: number

beforeAll(async () => {
  t = await buildTestApp({ ADMIN_TOKEN })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  baseUrl = `http://127.0.0.1:${address.port}`
  api = createModelApi(createHttpClient({ baseUrl, fetch: await undiciFetch(), timeoutMs: 30_000 }))
  powerToolsId = (
    await api.get<{ id: number }>('structure', { where: { urlFull: '/structure/power-tools/' }, select: { id: true } })
  ).id
})
afterAll(async () => {
  await t?.close()
})

const token = ADMIN_TOKEN
const file = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name)
const page = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
const count = async () =>
  Number(
    (
      await t.app.db
        .selectFrom('structure')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('the write was accepted')
}

describe('creating and changing records', () => {
  it('creates a product with its image, stores the image by content hash and serves its page at once', async () => {
    const png = await pngImage(16, 12)
    const created = await api.post<any>(
      'structure',
      {
        parentId: powerToolsId,
        typeId: 'product',
        title: 'Гайковёрт ударный 20 В',
        urlFull: '/structure/power-tools/impact-wrench',
        sort: 50,
        product: { image: file(png, 'photo.png'), article: 'ЭИ-2001', price: 15990, description: 'Мощный гайковёрт.' },
      },
      { token },
    )
    expect(created).toMatchObject({ id: expect.any(Number), title: 'Гайковёрт ударный 20 В', published: true })
    expect(created.product).toMatchObject({
      article: 'ЭИ-2001',
      price: 15990,
      image: expect.stringMatching(/^uploads\/[0-9a-f]{16}\.16x12\.png$/),
    })
    expect(fs.readFileSync(path.join(t.config.mediaDir, created.product.image))).toEqual(png)

    const media = await fetch(`${baseUrl}/media/${created.product.image}`)
    expect(media.status).toBe(200)
    expect(media.headers.get('cache-control')).toMatch(/immutable/)

    const html = await page('/structure/power-tools/impact-wrench')
    expect(html.statusCode).toBe(200)
    expect(titleOf(html.body)).toContain('Гайковёрт ударный 20 В')
    expect(html.body).toContain(created.product.image)
    const section = await page('/structure/power-tools/')
    expect(decodeEntities(section.body)).toContain('Гайковёрт ударный 20 В')

    // The same bytes again get the same name.
    const again = await api.post<any>(
      'structure',
      {
        parentId: powerToolsId,
        typeId: 'product',
        title: 'Копия',
        urlFull: '/structure/power-tools/impact-wrench-2',
        product: { image: file(png, 'other-name.png') },
      },
      { token },
    )
    expect(again.product.image).toBe(created.product.image)
  })

  it('patches a record and its part: the page shows the change at once', async () => {
    const { id } = await api.get<{ id: number }>('structure', {
      where: { urlFull: '/structure/power-tools/impact-wrench' },
      select: { id: true },
    })
    expect((await page('/structure/power-tools/impact-wrench')).statusCode).toBe(200)
    const jpeg = await jpegImage(20, 20)
    const updated = await api.patch<any>(
      'structure',
      { id, title: 'Гайковёрт ударный 20 В Pro', product: { price: 17990, image: file(jpeg, 'new.jpg') } },
      { token },
    )
    expect(updated.title).toBe('Гайковёрт ударный 20 В Pro')
    expect(updated.product).toMatchObject({
      price: 17990,
      article: 'ЭИ-2001',
      image: expect.stringMatching(/^uploads\/[0-9a-f]{16}\.20x20\.jpg$/),
    })
    const html = await page('/structure/power-tools/impact-wrench')
    expect(titleOf(html.body)).toContain('Гайковёрт ударный 20 В Pro')
  })

  it('creates a landing with its index, slides and advantages in one write, in the order sent', async () => {
    const [red, green] = await Promise.all([pngImage(30, 10, [255, 0, 0]), pngImage(30, 10, [0, 255, 0])])
    const created = await api.post<any>(
      'structure',
      {
        parentId: null,
        typeId: 'index',
        title: 'Вторая витрина',
        urlFull: '/promo/',
        index: {
          logo: file(red, 'logo.png'),
          tel: '+7 (495) 000-00-00',
          telText: 'Круглосуточно',
          description: 'Акции',
          copyright: '© Промо',
        },
        sliderItems: [
          { image: file(red, 'a.png'), title: 'Первый' },
          { image: file(green, 'b.png'), title: 'Второй' },
        ],
        advantages: [{ title: 'Быстро', description: 'Очень', image: file(green, 'c.png') }, { title: 'Надёжно' }],
      },
      { token },
    )
    expect(created.index).toMatchObject({ tel: '+7 (495) 000-00-00', logo: expect.stringMatching(/^uploads\//) })
    expect(created.sliderItems.map((s: any) => s.title)).toEqual(['Первый', 'Второй'])
    expect(created.sliderItems[0].image).not.toBe(created.sliderItems[1].image)
    expect(created.advantages.map((a: any) => a.title)).toEqual(['Быстро', 'Надёжно'])
    expect(created.advantages[1].image).toBeNull()
    const home = await page('/promo/')
    expect(home.statusCode).toBe(200)
    expect(decodeEntities(home.body)).toContain('Круглосуточно')
  })

  it('creates and patches a flat model', async () => {
    const created = await api.post<any>('orderType', { type: 'wholesale', title: 'Оптовый заказ' }, { token })
    expect(created).toEqual({ id: expect.any(Number), type: 'wholesale', title: 'Оптовый заказ' })
    const patched = await api.patch<any>('orderType', { id: created.id, title: 'Опт' }, { token })
    expect(patched.title).toBe('Опт')
    const conflict = await refusal(api.post('orderType', { type: 'wholesale', title: 'Ещё раз' }, { token }))
    expect(conflict.status).toBe(409)
  })
})

describe('refused writes change nothing', () => {
  it('refuses a file whose bytes are not an image, whatever its name, and an SVG', async () => {
    const before = await count()
    for (const [bytes, name] of [
      [Buffer.from('это не картинка, а текст'), 'photo.png'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg'],
      [Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'anim.gif'],
    ] as const) {
      const error = await refusal(
        api.post(
          'structure',
          {
            parentId: powerToolsId,
            typeId: 'product',
            title: 'Плохой файл',
            urlFull: `/structure/power-tools/bad-${name}`,
            product: { image: file(bytes, name) },
          },
          { token },
        ),
      )
      expect(error.status, name).toBe(415)
      expect(error.message).toMatch(/JPEG, PNG, WebP или AVIF/)
    }
    expect(await count()).toBe(before)
  })

  it('refuses an oversized file with 413', async () => {
    const before = await count()
    const big = Buffer.concat([await pngImage(4, 4), Buffer.alloc(10 * 1024 * 1024 + 1)])
    const error = await refusal(
      api.post(
        'structure',
        {
          parentId: powerToolsId,
          typeId: 'product',
          title: 'Большой файл',
          urlFull: '/structure/power-tools/big',
          product: { image: file(big, 'big.png') },
        },
        { token },
      ),
    )
    expect(error.status).toBe(413)
    expect(error.message).toMatch(/слишком большой/i)
    expect(await count()).toBe(before)
  })

  it('refuses a pixel bomb: a tiny PNG that declares 50000 × 50000 pixels', async () => {
    const before = await count()
    const error = await refusal(
      api.post(
        'structure',
        {
          parentId: powerToolsId,
          typeId: 'product',
          title: 'Бомба',
          urlFull: '/structure/power-tools/bomb',
          product: { image: file(pixelBombPng(), 'bomb.png') },
        },
        { token },
      ),
    )
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/Слишком большое изображение/)
    expect(await count()).toBe(before)
    expect(
      fs.existsSync(path.join(t.config.mediaDir, 'uploads'))
        ? fs.readdirSync(path.join(t.config.mediaDir, 'uploads')).filter((f) => f.endsWith('.tmp'))
        : [],
    ).toEqual([])
  })

  it('answers 401 without a token and 403 with a wrong one, and changes nothing', async () => {
    const { id, title } = await api.get<{ id: number; title: string }>('structure', {
      where: { urlFull: '/structure/' },
      select: { id: true, title: true },
    })
    const missing = await refusal(api.patch('structure', { id, title: 'Взлом' }))
    expect(missing.status).toBe(401)
    const wrong = await refusal(api.patch('structure', { id, title: 'Взлом' }, { token: 'wrong-token-wrong-token' }))
    expect(wrong.status).toBe(403)
    const created = await refusal(
      api.post('structure', { typeId: 'page', title: 'Взлом', urlFull: '/hack' }, { token: `${token}x` }),
    )
    expect(created.status).toBe(403)
    const after = await api.get<{ title: string }>('structure', { where: { id }, select: { title: true } })
    expect(after.title).toBe(title)
    expect((await page('/hack')).statusCode).toBe(404)
  })

  it('refuses writes when no admin token is configured', async () => {
    const access = createAdminCheck(null)
    expect(await access({ headers: { authorization: `Bearer ${token}` } } as never)).toBe('unconfigured')
    expect(await createAdminCheck(token)({ headers: { authorization: `bearer ${token}` } } as never)).toBe('admin')
    expect(await createAdminCheck(token)({ headers: {} } as never)).toBe('missing')
  })

  it('names an unknown field, refuses a taken address and a missing parent, in Russian', async () => {
    const unknown = await refusal(
      api.post('structure', { typeId: 'page', title: 'x', urlFull: '/x', isAdmin: true }, { token }),
    )
    expect(unknown.status).toBe(400)
    expect(unknown.message).toBe('Неизвестное поле "isAdmin" в модели structure')
    expect(unknown.errors.isAdmin).toMatch(/[а-я]/)

    const nestedUnknown = await refusal(
      api.post('structure', { typeId: 'page', title: 'x', urlFull: '/x', product: { owner: 1 } }, { token }),
    )
    expect(nestedUnknown.message).toBe('Неизвестное поле "product.owner" в модели structure')

    const missing = await refusal(api.post('structure', { typeId: 'page', urlFull: '/x' }, { token }))
    expect(missing.status).toBe(400)
    expect(missing.errors.title).toBe('Поле обязательно')

    const taken = await refusal(
      api.post('structure', { typeId: 'page', title: 'Дубль', urlFull: '/structure/' }, { token }),
    )
    expect(taken.status).toBe(409)
    expect(taken.message).toMatch(/Адрес "\/structure\/" уже занят/)

    const orphan = await refusal(
      api.post('structure', { typeId: 'page', title: 'Сирота', urlFull: '/orphan', parentId: 999999 }, { token }),
    )
    expect(orphan.status).toBe(400)
    expect(orphan.message).toMatch(/не найдена/)

    const notFound = await refusal(api.patch('structure', { id: 999999, title: 'Нет' }, { token }))
    expect(notFound.status).toBe(404)
  })

  it('refuses a file at a path that is not an image field, and a JSON body', async () => {
    const error = await refusal(
      api.post(
        'structure',
        { typeId: 'page', title: file(await pngImage(), 'x.png'), urlFull: '/file-title' },
        { token },
      ),
    )
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/Файл "title" не ожидается/)

    const json = await t.app.inject({
      method: 'POST',
      url: '/api/structure',
      payload: { typeId: 'page', title: 'x', urlFull: '/json' },
      headers: { authorization: `Bearer ${token}` },
    })
    expect(json.statusCode).toBe(415)
    expect(json.json().error.message).toMatch(/multipart/)
  })

  it('refuses a multipart body with an unknown form field or broken data JSON', async () => {
    const bodies: Array<Record<string, string>> = [
      { data: '{"typeId":', title: 'x' },
      { data: '{"typeId":' },
      { data: '[]' },
      { other: '1' },
    ]
    for (const fields of bodies) {
      const body = multipartBody(fields)
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/structure',
        payload: body.payload,
        headers: { ...body.headers, authorization: `Bearer ${token}` },
      })
      expect(res.statusCode, JSON.stringify(fields)).toBe(400)
      expect(res.json().error.message).toMatch(/[а-я]/)
    }
  })

  it('keeps a structure write whole: a parent moved under its own child is refused and nothing changes', async () => {
    const catalogue = await api.get<any>('structure', {
      where: { urlFull: '/structure/' },
      select: { id: true, parentId: true },
    })
    const error = await refusal(
      api.patch('structure', { id: catalogue.id, parentId: powerToolsId, title: 'Перемещён' }, { token }),
    )
    expect(error.status).toBe(400)
    const after = await api.get<any>('structure', {
      where: { id: catalogue.id },
      select: { parentId: true, title: true },
    })
    expect(after.parentId).toBe(catalogue.parentId)
    expect(after.title).not.toBe('Перемещён')
  })
})
