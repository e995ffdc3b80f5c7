// Russian demo content for the first start of an empty database: a small power-tool shop.
// Images are files in ./demo-media, copied into the media folder under content-hashed names.

export interface DemoProduct {
  slug: string
  title: string
  article: string
  price: number
  /** A file in ./demo-media; none: the product has no picture and shows the placeholder (src/site/no-photo.ts) */
  image?: string
  description: string
}

interface DemoSection {
  slug: string
  title: string
  image: string
  content: string
  products: DemoProduct[]
}

export const DEMO_SITE = {
  title: 'ТехноМастер — электроинструмент и садовая техника',
  metaDescription:
    'Магазин электроинструмента, садовой техники и ручного инструмента. Доставка по Москве и области, гарантия и сервис.',
  logo: 'logo.svg',
  tel: '+7 (495) 123-45-67',
  telText: 'Ежедневно с 9:00 до 21:00',
  description: 'Электроинструмент, садовая техника и ручной инструмент для дома и профессионалов.',
  copyright: '© 2026 ООО «ТехноМастер». Все права защищены.',
}

export const DEMO_SLIDES = [
  { image: 'slide-1.svg', title: 'Электроинструмент для дома и стройки' },
  { image: 'slide-2.svg', title: 'Садовая техника к новому сезону' },
  { image: 'slide-3.svg', title: 'Доставка по Москве и области за 1 день' },
]

export const DEMO_ADVANTAGES = [
  {
    image: 'adv-delivery.svg',
    title: 'Быстрая доставка',
    description: 'Привезём заказ на следующий день по Москве и области.',
  },
  {
    image: 'adv-warranty.svg',
    title: 'Гарантия до 3 лет',
    description: 'Официальная гарантия производителя на весь инструмент.',
  },
  {
    image: 'adv-service.svg',
    title: 'Собственный сервис',
    description: 'Ремонтируем и обслуживаем технику в своём сервисном центре.',
  },
  {
    image: 'adv-payment.svg',
    title: 'Удобная оплата',
    description: 'Наличные, карта или безналичный расчёт для организаций.',
  },
]

export const DEMO_CATALOGUE = {
  title: 'Каталог',
  content:
    'Электроинструмент, садовая техника и ручной инструмент от проверенных производителей. Поможем подобрать инструмент под задачу.',
}

export const DEMO_SECTIONS: DemoSection[] = [
  {
    slug: 'power-tools',
    title: 'Электроинструмент',
    image: 'section-power-tools.svg',
    content: 'Дрели, шуруповёрты, перфораторы и пилы для ремонта и строительства.',
    products: [
      {
        slug: 'screwdriver',
        title: 'Шуруповёрт аккумуляторный 18 В',
        article: 'ЭИ-1002',
        price: 7490,
        image: 'screwdriver.svg',
        description: 'Лёгкий шуруповёрт с двумя аккумуляторами 2 А·ч, двумя скоростями и подсветкой рабочей зоны.',
      },
      {
        slug: 'angle-grinder',
        title: 'Углошлифовальная машина 125 мм',
        article: 'ЭИ-1003',
        price: 5290,
        image: 'angle-grinder.svg',
        description: 'УШМ мощностью 900 Вт с защитой от повторного пуска и дополнительной рукояткой.',
      },
      {
        slug: 'circular-saw',
        title: 'Пила циркулярная 1400 Вт',
        article: 'ЭИ-1004',
        price: 9990,
        image: 'circular-saw.svg',
        description: 'Глубина пропила до 65 мм, регулировка угла наклона до 45°, диск в комплекте.',
      },
      {
        slug: 'jigsaw',
        title: 'Лобзик электрический 650 Вт',
        article: 'ЭИ-1005',
        price: 4390,
        image: 'jigsaw.svg',
        description: 'Маятниковый ход, плавная регулировка скорости, быстрая замена пилки без ключа.',
      },
      {
        slug: 'rotary-hammer',
        title: 'Перфоратор SDS-plus 800 Вт',
        article: 'ЭИ-1006',
        price: 11490,
        image: 'rotary-hammer.svg',
        description: 'Энергия удара 2,7 Дж, три режима работы, кейс и набор буров в комплекте.',
      },
      {
        slug: 'drill-impact',
        title: 'Дрель ударная 750 Вт',
        article: 'ЭИ-1007',
        price: 3990,
        image: 'drill.svg',
        description: 'Сверление бетона, кирпича, дерева и металла; реверс и ограничитель глубины.',
      },
      {
        // No picture yet: its card, its page and its share image show the placeholder.
        slug: 'heat-gun',
        title: 'Фен строительный 2000 Вт',
        article: 'ЭИ-1008',
        price: 2790,
        description: 'Два режима нагрева до 600 °C, защита от перегрева, две насадки в комплекте.',
      },
    ],
  },
  {
    slug: 'garden',
    title: 'Садовая техника',
    image: 'section-garden.svg',
    content: 'Газонокосилки, триммеры и пилы для ухода за участком.',
    products: [
      {
        slug: 'lawn-mower',
        title: 'Газонокосилка бензиновая 46 см',
        article: 'СТ-2001',
        price: 24990,
        image: 'lawn-mower.svg',
        description: 'Самоходная косилка с травосборником 60 л и регулировкой высоты среза в 7 положениях.',
      },
      {
        slug: 'trimmer',
        title: 'Триммер электрический 1200 Вт',
        article: 'СТ-2002',
        price: 6490,
        image: 'trimmer.svg',
        description: 'Разборная штанга, леска и нож в комплекте, ширина скашивания до 38 см.',
      },
      {
        slug: 'chainsaw',
        title: 'Бензопила 45 см³',
        article: 'СТ-2003',
        price: 15990,
        image: 'chainsaw.svg',
        description: 'Шина 40 см, лёгкий запуск, автоматическая смазка цепи.',
      },
      {
        slug: 'hedge-trimmer',
        title: 'Кусторез аккумуляторный',
        article: 'СТ-2004',
        price: 8990,
        image: 'hedge-trimmer.svg',
        description: 'Длина ножа 50 см, шаг реза 18 мм, работа до 60 минут от одного аккумулятора.',
      },
      {
        slug: 'hose-reel',
        title: 'Катушка со шлангом 30 м',
        article: 'СТ-2005',
        price: 3490,
        image: 'garden-hose-reel.svg',
        description: 'Шланг 1/2" с пистолетом-распылителем и коннекторами на колёсной тележке.',
      },
      {
        slug: 'leaf-blower',
        title: 'Воздуходувка-пылесос 2500 Вт',
        article: 'СТ-2006',
        price: 5790,
        image: 'leaf-blower.svg',
        description: 'Три режима: выдув, всасывание и измельчение листвы; мешок 45 л.',
      },
    ],
  },
  {
    slug: 'hand-tools',
    title: 'Ручной инструмент',
    image: 'section-hand-tools.svg',
    content: 'Молотки, ключи, измерительный инструмент и хранение.',
    products: [
      {
        slug: 'hammer',
        title: 'Молоток слесарный 500 г',
        article: 'РИ-3001',
        price: 690,
        image: 'hammer.svg',
        description: 'Кованый боёк, фибергласовая рукоятка с противоскользящим покрытием.',
      },
      {
        slug: 'wrench-set',
        title: 'Набор ключей комбинированных, 12 шт.',
        article: 'РИ-3002',
        price: 2890,
        image: 'wrench-set.svg',
        description: 'Размеры от 8 до 19 мм, хром-ванадиевая сталь, сумка-скрутка.',
      },
      {
        slug: 'pliers',
        title: 'Пассатижи 200 мм',
        article: 'РИ-3003',
        price: 890,
        image: 'pliers.svg',
        description: 'Закалённые режущие кромки, двухкомпонентные рукоятки.',
      },
      {
        slug: 'tape-measure',
        title: 'Рулетка 5 м',
        article: 'РИ-3004',
        price: 450,
        image: 'tape-measure.svg',
        description: 'Обрезиненный корпус, фиксатор ленты и магнитный крючок.',
      },
      {
        slug: 'spirit-level',
        title: 'Уровень строительный 60 см',
        article: 'РИ-3005',
        price: 1190,
        image: 'spirit-level.svg',
        description: 'Алюминиевый профиль, три глазка, точность 0,5 мм/м.',
      },
      {
        slug: 'tool-box',
        title: 'Ящик для инструмента',
        article: 'РИ-3006',
        price: 1590,
        image: 'tool-box.svg',
        description: 'Съёмный лоток, металлические замки, органайзеры в крышке.',
      },
      {
        slug: 'hand-saw',
        title: 'Ножовка по дереву 450 мм',
        article: 'РИ-3007',
        price: 790,
        image: 'hand-saw.svg',
        description: 'Закалённый зуб, три грани заточки, эргономичная рукоятка.',
      },
    ],
  },
]

/** The product the contract promises at /structure/product. */
export const DEMO_FEATURED_PRODUCT: DemoProduct = {
  slug: 'product',
  title: 'Дрель-шуруповёрт аккумуляторная 18 В',
  article: 'ЭИ-1001',
  price: 12990,
  image: 'drill.svg',
  description:
    'Бесщёточный двигатель, крутящий момент 60 Н·м, два аккумулятора 4 А·ч и зарядное устройство в кейсе. Подходит для сверления дерева и металла и закручивания крепежа.',
}

export const DEMO_ORDER_TYPES = [
  { type: 'callback', title: 'Обратный звонок' },
  { type: 'order', title: 'Заказ товара' },
  { type: 'service', title: 'Сервис и ремонт' },
]
