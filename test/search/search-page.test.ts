// /poisk over HTTP (issue 22): server-rendered results with the matched words marked, noindex, a
// plain GET form that works without JavaScript, the header's search box on every public page, and
// bad or long input answered with a page, never a 500. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeEntities, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { ADMIN_TOKEN } from '../api/helpers'
import { PRODUCTS, SECTION_URL, writeCatalogue } from './search-helpers'

const text = (html: string) => decodeEntities(html.replace(/<[^>]+>/g, ''))

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`/poisk on ${dialect.name}`, () => {
    let t: TestApp

    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
      await writeCatalogue(t)
    })
    afterAll(() => t?.close())

    const get = (url: string) => t.app.inject({ method: 'GET', url })

    it('shows the form and runs no search without a query', async () => {
      const res = await get('/poisk')
      expect(res.statusCode).toBe(200)
      expect(res.body).toMatch(/<form[^>]*role="search"[^>]*action="\/poisk"[^>]*method="get"/)
      expect(res.body).toContain('<label for="search-page-q">Поиск по каталогу</label>')
      expect(res.body).not.toContain('Ничего не найдено')
      expect(res.body).not.toContain('class="card"')
    })

    it('renders the results on the server with the matched words marked', async () => {
      const res = await get(`/poisk?q=${encodeURIComponent('холодильника')}`)
      expect(res.statusCode).toBe(200)
      expect(res.body).toContain(`href="${SECTION_URL}birusa"`)
      expect(res.body).toContain('<mark>Холодильники</mark> Бирюса 118')
      // The product that only mentions the word comes after the one whose title has it
      expect(res.body.indexOf('birusa')).toBeLessThan(res.body.indexOf('polka'))
      expect(res.body).toContain('value="холодильника"')
    })

    it('is never indexed: meta robots and X-Robots-Tag say noindex, the sitemap leaves it out', async () => {
      const res = await get('/poisk?q=дрели')
      expect(res.body).toMatch(/<meta name="robots" content="noindex[^"]*"/)
      expect(res.headers['x-robots-tag']).toBe('noindex')
      expect((await get('/sitemap.xml')).body).not.toMatch(/\/poisk[<?]/)
    })

    it('keeps no copy of a result in the page cache: endless distinct queries cannot flood it', async () => {
      const res = await get('/poisk?q=дрели')
      expect(res.headers['x-vitrina-cache']).toBeUndefined()
      expect(res.headers['cache-control']).toBe('no-store')
    })

    it('says when nothing is found, and offers the corrected query as a link', async () => {
      const none = await get(`/poisk?q=${encodeURIComponent('<b>ъъъъъ</b>')}`)
      expect(none.statusCode).toBe(200)
      expect(text(none.body)).toContain('Ничего не найдено по запросу «<b>ъъъъъ</b>»')
      expect(none.body).not.toContain('<b>ъъъъъ</b>')
      const typo = await get(`/poisk?q=${encodeURIComponent('холодильнек')}`)
      expect(text(typo.body)).toContain('Возможно, вы искали «холодильник')
      expect(typo.body).toMatch(
        /<a href="\/poisk\?q=%D1%85%D0%BE%D0%BB%D0%BE%D0%B4%D0%B8%D0%BB%D1%8C%D0%BD%D0%B8%D0%BA[^"]*">/,
      )
      expect(typo.body).toContain(`href="${SECTION_URL}birusa"`)
    })

    it('finds an артикул in another form', async () => {
      const res = await get(`/poisk?q=${encodeURIComponent('зб5005')}`)
      expect(text(res.body)).toContain(PRODUCTS.drill.title)
    })

    it('answers bad and long input with a page, never a 500', async () => {
      const long = await get(`/poisk?q=${'я'.repeat(201)}`)
      expect(long.statusCode).toBe(200)
      expect(text(long.body)).toContain('Запрос слишком длинный: не больше 200 символов')
      for (const url of [
        '/poisk?q=%E0%A4%A',
        '/poisk?q=%00%01',
        '/poisk?q[]=a&q[]=b',
        '/poisk?q=дрели&page=abc',
        '/poisk?q=дрели&page=-1',
        '/poisk?q=дрели&page=99999999999',
        `/poisk?q=${encodeURIComponent('" OR 1=1 -- NEAR(a b) * ^ : {name}')}`,
        `/poisk?q=${encodeURIComponent("'a':* & !b | c")}`,
        `/poisk?q=${'слово '.repeat(30)}`,
      ]) {
        const res = await get(url)
        expect(res.statusCode, url).toBeLessThan(500)
        expect([200, 400], url).toContain(res.statusCode)
      }
    })

    it('drops control characters: neither the title nor the search box echoes one, the search runs without them', async () => {
      const res = await get(`/poisk?q=${encodeURIComponent('\u0000Дре\u001bли\tручные\u007f\u0085\r\n')}`)
      expect(res.statusCode).toBe(200)
      expect(res.body).toContain('<title>Поиск: Дрели ручные</title>')
      expect(res.body).toContain('value="Дрели ручные"')
      expect(text(res.body)).toContain(PRODUCTS.drill.title)
      // Not a single one anywhere in the page, raw or as a character reference.
      expect([...decodeEntities(res.body)].filter((c) => /\p{Cc}/u.test(c) && !'\t\n\r'.includes(c))).toEqual([])
      const only = await get(`/poisk?q=${encodeURIComponent('\u0001\u0002\u007f')}`)
      expect(only.statusCode).toBe(200)
      expect(only.body).toContain('<title>Поиск по каталогу</title>')
    })

    it('has the search box in the header of every public page', async () => {
      for (const url of ['/', SECTION_URL, `${SECTION_URL}birusa`, '/zayavka', '/poisk', '/net-takoi-stranicy']) {
        const res = await get(url)
        expect(res.body, url).toMatch(/<input class="search-box__input" aria-label="Поиск по каталогу" type="search"/)
        expect(res.body, url).toMatch(
          /<form class="header__search search-box" role="search" action="\/poisk" method="get">/,
        )
        expect(text(res.body), url).toContain('Найти')
      }
    })
  })
}
