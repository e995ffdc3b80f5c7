// A small catalogue for the search suites, written through the write API as the back office does.
import { expect } from 'vitest'
import { multipartBody } from '../helpers/multipart'
import type { TestApp } from '../helpers/build-test-app'
import { AUTH } from '../api/helpers'
import { reindexProducts } from '../../server/catalogue/search/search-index'

export const SECTION_URL = '/structure/poisk-test/'

export interface TestProduct {
  title: string
  slug: string
  article?: string
  vendor?: string
  description?: string
  published?: boolean
  status?: number
}

/** The products of the suites, next to the demo shop's (which has drills too: «Дрель ударная 750 Вт»). */
export const PRODUCTS = {
  fridge: {
    title: 'Холодильники Бирюса 118',
    slug: 'birusa',
    article: 'ABC-123/45',
    vendor: 'Бирюса',
    description: 'Двухкамерный, белый',
  },
  shelf: { title: 'Полка стеклянная', slug: 'polka', article: 'P-77', description: 'Подходит для холодильника Бирюса' },
  drill: { title: 'Дрели ручные Зубр', slug: 'zubr', article: 'ЗБ-5005', vendor: 'Зубр' },
  tree: { title: 'Искусственная елка 180 см', slug: 'elka', article: 'EL-180' },
  hedgehog: { title: 'Ёжик садовый керамический', slug: 'ezhik' },
  draft: { title: 'Холодильник Тайный черновик', slug: 'tainyi', published: false },
  withdrawn: { title: 'Холодильник Снятый навсегда', slug: 'snyatyi', status: 410 },
} satisfies Record<string, TestProduct>

export async function write(t: TestApp, method: 'POST' | 'PATCH', data: Record<string, unknown>): Promise<number> {
  const body = multipartBody({ data: JSON.stringify(data) })
  const res = await t.app.inject({ method, url: '/api/structure', ...body, headers: { ...body.headers, ...AUTH } })
  expect(res.statusCode, res.body).toBeLessThan(300)
  return res.json().data.id
}

/** Writes the section and its products; returns their ids by key. */
export async function writeCatalogue(t: TestApp): Promise<Record<keyof typeof PRODUCTS | 'section', number>> {
  const root = await t.app.db
    .selectFrom('structure')
    .select('id')
    .where('urlFull', '=', '/structure/')
    .executeTakeFirstOrThrow()
  const ids = {} as Record<keyof typeof PRODUCTS | 'section', number>
  ids.section = await write(t, 'POST', {
    parentId: root.id,
    typeId: 'section',
    title: 'Раздел поиска',
    urlFull: SECTION_URL,
  })
  for (const [key, p] of Object.entries(PRODUCTS) as [keyof typeof PRODUCTS, TestProduct][]) {
    ids[key] = await write(t, 'POST', {
      parentId: ids.section,
      typeId: 'product',
      title: p.title,
      urlFull: `${SECTION_URL}${p.slug}`,
      ...(p.published === false ? { published: false } : {}),
      ...(p.status ? { status: p.status } : {}),
      product: { article: p.article ?? null, price: 1000, description: p.description ?? null },
    })
    if (p.vendor) {
      // The write API does not carry the brand yet: a direct write, indexed as every write path must.
      await t.app.db.updateTable('product').set({ vendor: p.vendor }).where('structureId', '=', ids[key]).execute()
      await reindexProducts(t.app.db, [ids[key]])
    }
  }
  return ids
}
