// The demo shop's catalogue depth (decision 025), by product slug: a newcomer sees every feature of
// a product in the first minute: characteristics (grouped, with units), a gallery, «Под заказ» and
// «Нет в наличии», an old price, «Цена по запросу», brands, the featured products and variants;
// and «Электроинструмент» narrowed by its characteristics (decision 042: DEMO_FILTERS).
import type { Availability } from '../data/schema'
import type { FilterKind } from '../../src/catalogue/characteristics'

interface DemoProperty {
  group?: string
  name: string
  value: string
  unit?: string
}

export interface DemoProductDetails {
  /** The gallery after the product's own image (demo-media files) */
  gallery?: string[]
  vendor?: string
  availability?: Availability
  oldPrice?: number
  /** No price: «Цена по запросу» */
  priceOnRequest?: boolean
  featured?: boolean
  properties?: DemoProperty[]
  /** Its variants (decision 043): title, артикул, rubles, availability, size */
  variants?: [title: string, article: string, rubles: number, availability: Availability, size: string][]
}

/** A demo variant as the variant repository takes it (server/catalogue/products/variant-rows.ts). */
export function demoVariant([title, article, rubles, availability, size]: NonNullable<
  DemoProductDetails['variants']
>[number]) {
  return { title, article, price: rubles * 100, availability, options: [{ name: 'Размер', value: size }] }
}

const POWER = 'Электрика'
const SIZE = 'Габариты'
const BATTERY = 'аккумулятор'
const MAINS = 'сеть'

/**
 * The power tools' filters, as the owner would set them in «Характеристики»: how each is offered
 * in a section and its place among them (and on the product page, after the characteristics the
 * owner has not placed). The seed applies them through the characteristics' store.
 */
export const DEMO_FILTERS: readonly {
  name: string
  unit: string
  /** The products' brand (their own field, not a characteristics row: decision 042, "The brand") */
  source?: 'vendor'
  filter: Exclude<FilterKind, 'none'>
  sort: number
}[] = [
  { name: 'Бренд', unit: '', source: 'vendor', filter: 'values', sort: 0 },
  { name: 'Тип питания', unit: '', filter: 'values', sort: 1 },
  { name: 'Мощность', unit: 'Вт', filter: 'range', sort: 2 },
  { name: 'Цвет', unit: '', filter: 'values', sort: 3 },
  { name: 'Масса', unit: 'кг', filter: 'range', sort: 4 },
]

/** A power tool's filtered characteristics: its supply, power in watts (a cordless one has none), colour, weight in kg */
function tool(supply: string, watts: string | null, colour: string, kg: string): DemoProperty[] {
  return [
    { name: 'Тип питания', value: supply },
    ...(watts === null ? [] : [{ name: 'Мощность', value: watts, unit: 'Вт' }]),
    { name: 'Цвет', value: colour },
    { name: 'Масса', value: kg, unit: 'кг' },
  ]
}

export const DEMO_PRODUCT_DETAILS: Readonly<Record<string, DemoProductDetails>> = {
  // /structure/product: the contract's demo product shows all of it at once.
  product: {
    gallery: ['drill-side.svg', 'drill-kit.svg'],
    vendor: 'Мастер Про',
    availability: 'on_order',
    oldPrice: 15990,
    featured: true,
    properties: [
      { group: POWER, name: 'Тип питания', value: BATTERY },
      { group: POWER, name: 'Напряжение аккумулятора', value: '18', unit: 'В' },
      { group: POWER, name: 'Ёмкость аккумулятора', value: '4', unit: 'А·ч' },
      { group: POWER, name: 'Двигатель', value: 'бесщёточный' },
      { group: 'Работа', name: 'Крутящий момент', value: '60', unit: 'Н·м' },
      { group: 'Работа', name: 'Частота вращения', value: '0–1800', unit: 'об/мин' },
      { group: SIZE, name: 'Масса', value: '1,6', unit: 'кг' },
      { group: SIZE, name: 'Комплектация', value: '2 аккумулятора, зарядное устройство, кейс' },
      { group: 'Корпус', name: 'Цвет', value: 'синий' },
    ],
  },
  screwdriver: {
    gallery: ['screwdriver-side.svg'],
    vendor: 'Мастер Про',
    featured: true,
    properties: [
      { name: 'Напряжение', value: '18', unit: 'В' },
      { name: 'Ёмкость аккумулятора', value: '2', unit: 'А·ч' },
      ...tool(BATTERY, null, 'синий', '1,2'),
    ],
  },
  'angle-grinder': {
    vendor: 'Вихрь',
    oldPrice: 6290,
    properties: [{ name: 'Диаметр диска', value: '125', unit: 'мм' }, ...tool(MAINS, '900', 'зелёный', '2,1')],
  },
  'circular-saw': {
    vendor: 'Вихрь',
    availability: 'out_of_stock',
    properties: [{ name: 'Глубина пропила', value: '65', unit: 'мм' }, ...tool(MAINS, '1400', 'зелёный', '4,3')],
  },
  jigsaw: { vendor: 'Вихрь', properties: tool(MAINS, '650', 'оранжевый', '2,3') },
  'rotary-hammer': {
    vendor: 'Мастер Про',
    featured: true,
    properties: [{ name: 'Энергия удара', value: '2,7', unit: 'Дж' }, ...tool(MAINS, '800', 'синий', '2,9')],
  },
  'drill-impact': { vendor: 'Мастер Про', properties: tool(MAINS, '750', 'оранжевый', '2,0') },
  // No picture (demo-content.ts): the placeholder shows on its card and page.
  'heat-gun': {
    vendor: 'Термит',
    properties: [{ name: 'Температура', value: '50–600', unit: '°C' }, ...tool(MAINS, '2000', 'красный', '0,7')],
  },
  'lawn-mower': {
    gallery: ['lawn-mower-side.svg'],
    vendor: 'Садовод',
    availability: 'on_order',
    featured: true,
    properties: [
      { group: 'Двигатель', name: 'Тип', value: 'бензиновый, четырёхтактный' },
      { group: 'Двигатель', name: 'Мощность', value: '3,5', unit: 'л. с.' },
      { group: 'Кошение', name: 'Ширина скашивания', value: '46', unit: 'см' },
      { group: 'Кошение', name: 'Травосборник', value: '60', unit: 'л' },
    ],
  },
  chainsaw: { vendor: 'Садовод', priceOnRequest: true },
  // A product in several sizes with different prices: its page offers a choice of them.
  'tool-box': {
    variants: [
      ['16", 410×220×180 мм', 'РИ-3006-16', 1290, 'in_stock', '16"'],
      ['19", 480×250×220 мм', 'РИ-3006-19', 1590, 'in_stock', '19"'],
      ['22", 560×290×240 мм', 'РИ-3006-22', 1990, 'on_order', '22"'],
    ],
  },
}
