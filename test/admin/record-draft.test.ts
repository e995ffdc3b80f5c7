// The record editor's draft ↔ write API values (pages/admin/content/editor/record-draft.ts): what a
// save sends decides what is stored, so each rule the form relies on is pinned here.
import { describe, expect, it } from 'vitest'
import { draftFromRecord, emptyDraft, writeValues } from '../../pages/admin/content/editor/record-draft'

const product = {
  id: 7,
  parentId: 3,
  typeId: 'product',
  title: 'Дрель',
  urlFull: '/structure/drill',
  published: true,
  status: null,
  metaTitle: null,
  metaDescription: 'Описание',
  metaRobots: null,
  content: null,
  index: null,
  product: {
    article: 'А-1',
    price: 1500,
    oldPrice: null,
    vendor: 'Мастер',
    availability: 'on_order',
    featured: true,
    description: null,
  },
  images: [
    { id: 1, image: 'uploads/a.png', alt: 'Спереди' },
    { id: 2, image: 'uploads/b.png', alt: null },
  ],
  properties: [{ id: 5, groupName: null, name: 'Масса', value: '2', unit: 'кг' }],
  sliderItems: [],
  advantages: [],
}

describe('the record draft', () => {
  it('sends back what it read, with empty optional text as null', () => {
    expect(writeValues(draftFromRecord(product))).toEqual({
      id: 7,
      title: 'Дрель',
      urlFull: '/structure/drill',
      published: true,
      metaTitle: null,
      metaDescription: 'Описание',
      metaRobots: null,
      content: null,
      product: {
        article: 'А-1',
        price: 1500,
        oldPrice: null,
        vendor: 'Мастер',
        availability: 'on_order',
        featured: true,
        description: null,
      },
      // The gallery carries the main image (its first picture); the API copies it to product.image.
      images: [
        { image: 'uploads/a.png', alt: 'Спереди' },
        { image: 'uploads/b.png', alt: null },
      ],
      properties: [{ groupName: null, name: 'Масса', value: '2', unit: 'кг' }],
    })
  })

  it('sends a typed price as rubles, kopecks and spaces allowed, and anything else for the API to refuse', () => {
    const draft = draftFromRecord(product)
    const price = (typed: string) =>
      (writeValues({ ...draft, product: { ...draft.product, price: typed } }) as any).product.price
    expect(price('12 990')).toBe(12990)
    expect(price('')).toBeNull()
    expect(price('1 299,90 ₽')).toBe(1299.9)
    expect(price('12,5')).toBe(12.5)
    // The API answers «Не более 2 знаков после запятой» and «должно быть числом» beside the field.
    expect(price('12,555')).toBe(12.555)
    expect(price('семь')).toBe('семь')
  })

  it('leaves out the price, old price and availability of a product whose variants set them', () => {
    const sent = (writeValues(draftFromRecord(product), true) as any).product
    expect(sent).not.toHaveProperty('price')
    expect(sent).not.toHaveProperty('oldPrice')
    expect(sent).not.toHaveProperty('availability')
    expect(sent).toMatchObject({ article: 'А-1' })
  })

  it('sends only the part its type has; a new record names its type and parent', () => {
    const page = writeValues({ ...emptyDraft('page', 3, '/structure'), title: 'О нас', urlFull: '/structure/about' })
    expect(page).toMatchObject({ typeId: 'page', parentId: 3, urlFull: '/structure/about' })
    expect(page).not.toHaveProperty('product')
    expect(page).not.toHaveProperty('index')
    expect(emptyDraft('page', 3, '/structure').urlFull).toBe('/structure/')

    const file = new File([new Uint8Array([1])], 'logo.png', { type: 'image/png' })
    const index = writeValues({
      ...emptyDraft('index', null, '/'),
      title: 'Лендинг',
      index: { logo: file, tel: '+7 900 000-00-00', telText: '', description: '', copyright: '' },
      sliderItems: [{ key: 'a', image: 'uploads/s.png', title: '' }],
      advantages: [{ key: 'b', image: null, title: ' Быстро ', description: '' }],
    })
    expect(index).toMatchObject({
      typeId: 'index',
      parentId: null,
      index: { logo: file, tel: '+7 900 000-00-00', telText: null },
      sliderItems: [{ image: 'uploads/s.png', title: null }],
      advantages: [{ image: null, title: 'Быстро', description: null }],
    })
  })
})
