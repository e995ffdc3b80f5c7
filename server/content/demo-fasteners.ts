// The demo shop's long section (docs/decisions/031-sections-and-scale.md): 30 fasteners, more than
// one page of a section (24), so a newcomer sees paging, sorting and the filters at once. Kept apart
// from demo-content.ts, whose products show the product page's features.
import type { Availability } from '../data/schema'

export interface DemoListedProduct {
  slug: string
  title: string
  article: string
  /** Rubles as a shop writes them: «290», «4,90» (the demo's kopecks) */
  price: string
  availability: Availability
  image: string
  description: string
}

export const DEMO_FASTENERS_SECTION = {
  slug: 'krepezh',
  title: 'Крепёж',
  image: 'fastener-bolt.svg',
  content: 'Саморезы, болты, гайки, шайбы, дюбели и анкеры в упаковках для дома и стройки.',
}

type Row = [slug: string, title: string, price: string, availability: Availability, image: string, description: string]

const IN = 'in_stock'
const ORDER = 'on_order'
const OUT = 'out_of_stock'
const BOLT = 'fastener-bolt.svg'
const SCREW = 'fastener-screw.svg'
const DOWEL = 'fastener-dowel.svg'

const ROWS: Row[] = [
  [
    'samorez-derevo-35x35',
    'Саморез по дереву 3,5×35 мм, 200 шт.',
    '290',
    IN,
    SCREW,
    'Жёлтый цинк, крупная резьба, потайная головка PH2.',
  ],
  [
    'samorez-derevo-42x65',
    'Саморез по дереву 4,2×65 мм, 100 шт.',
    '340',
    IN,
    SCREW,
    'Для каркасов и обрешётки, потайная головка PH2.',
  ],
  [
    'samorez-metall-35x25',
    'Саморез по металлу 3,5×25 мм, 200 шт.',
    '310',
    IN,
    SCREW,
    'Мелкая резьба, фосфатированный, для профиля ГКЛ.',
  ],
  [
    'samorez-krovelny-48x35',
    'Саморез кровельный 4,8×35 мм, 100 шт.',
    '690',
    IN,
    SCREW,
    'С шайбой EPDM и сверлом, цинк, шестигранная головка.',
  ],
  [
    'samorez-klop-42x13',
    'Саморез-клоп с прессшайбой 4,2×13 мм, 500 шт.',
    '520',
    ORDER,
    SCREW,
    'Для крепления профиля к профилю, острый.',
  ],
  [
    'samorez-gkl-35x45',
    'Саморез для гипсокартона 3,5×45 мм, 250 шт.',
    '380',
    IN,
    SCREW,
    'Чёрный фосфат, потайная головка, крупная резьба.',
  ],
  ['konfirmat-7x50', 'Конфирмат 7×50 мм, 50 шт.', '260', IN, SCREW, 'Евровинт для корпусной мебели, шлиц PZ3.'],
  [
    'bolt-din933-m6x30',
    'Болт DIN 933 М6×30, 50 шт.',
    '418,50',
    IN,
    BOLT,
    'Шестигранная головка, полная резьба, оцинкованный, класс 8.8.',
  ],
  [
    'bolt-din933-m8x40',
    'Болт DIN 933 М8×40, 50 шт.',
    '690',
    IN,
    BOLT,
    'Шестигранная головка, полная резьба, оцинкованный, класс 8.8.',
  ],
  [
    'bolt-din933-m10x60',
    'Болт DIN 933 М10×60, 25 шт.',
    '870',
    ORDER,
    BOLT,
    'Шестигранная головка, полная резьба, оцинкованный, класс 8.8.',
  ],
  [
    'bolt-din933-m12x80',
    'Болт DIN 933 М12×80, 20 шт.',
    '1150',
    IN,
    BOLT,
    'Шестигранная головка, полная резьба, оцинкованный, класс 8.8.',
  ],
  [
    'bolt-mebelny-m6x40',
    'Болт мебельный М6×40, 50 шт.',
    '480',
    IN,
    BOLT,
    'Полукруглая головка с квадратным подголовником, DIN 603.',
  ],
  ['gajka-din934-m6', 'Гайка DIN 934 М6, 100 шт.', '190', IN, BOLT, 'Шестигранная, оцинкованная, класс прочности 8.'],
  ['gajka-din934-m8', 'Гайка DIN 934 М8, 100 шт.', '260', IN, BOLT, 'Шестигранная, оцинкованная, класс прочности 8.'],
  ['gajka-din934-m10', 'Гайка DIN 934 М10, 50 шт.', '280', OUT, BOLT, 'Шестигранная, оцинкованная, класс прочности 8.'],
  [
    'gajka-samokontr-m8',
    'Гайка самоконтрящаяся DIN 985 М8, 50 шт.',
    '329,90',
    IN,
    BOLT,
    'С нейлоновым кольцом: не откручивается от вибрации.',
  ],
  ['shajba-din125-m6', 'Шайба плоская DIN 125 М6, 200 шт.', '150', IN, BOLT, 'Оцинкованная, под болты и шпильки М6.'],
  ['shajba-din125-m8', 'Шайба плоская DIN 125 М8, 200 шт.', '210', IN, BOLT, 'Оцинкованная, под болты и шпильки М8.'],
  [
    'shajba-grover-m8',
    'Шайба пружинная (гровер) М8, 200 шт.',
    '230',
    ORDER,
    BOLT,
    'Пружинная стопорная шайба DIN 127.',
  ],
  ['shpilka-m8x1000', 'Шпилька резьбовая М8×1000 мм', '120', IN, BOLT, 'DIN 975, оцинкованная, режется по месту.'],
  ['shpilka-m10x1000', 'Шпилька резьбовая М10×1000 мм', '170', IN, BOLT, 'DIN 975, оцинкованная, режется по месту.'],
  [
    'dyubel-6x30',
    'Дюбель распорный 6×30 мм, 100 шт.',
    '180',
    IN,
    DOWEL,
    'Нейлон, для бетона и кирпича, под саморез 4 мм.',
  ],
  [
    'dyubel-8x40',
    'Дюбель распорный 8×40 мм, 100 шт.',
    '240',
    IN,
    DOWEL,
    'Нейлон, для бетона и кирпича, под саморез 5 мм.',
  ],
  [
    'dyubel-gvozd-6x40',
    'Дюбель-гвоздь 6×40 мм, 100 шт.',
    '390',
    IN,
    DOWEL,
    'Потайной бортик, быстрый монтаж забиванием.',
  ],
  [
    'dyubel-gvozd-8x80',
    'Дюбель-гвоздь 8×80 мм, 50 шт.',
    '450',
    ORDER,
    DOWEL,
    'Грибовидный бортик, для плинтусов и обрешётки.',
  ],
  [
    'dyubel-babochka-10x50',
    'Дюбель «бабочка» для гипсокартона 10×50 мм, 50 шт.',
    '360',
    IN,
    DOWEL,
    'Раскрывается за листом, держит полки и карнизы.',
  ],
  [
    'dyubel-molly-m5',
    'Дюбель «молли» М5×52 мм, 25 шт.',
    '639,90',
    IN,
    DOWEL,
    'Металлический, для пустотелых стен, до 25 кг на точку.',
  ],
  [
    'ankerny-bolt-10x100',
    'Анкерный болт с гайкой 10×100 мм, 10 шт.',
    '559,90',
    IN,
    BOLT,
    'Для бетона и кирпича: ворота, навесы, стеллажи.',
  ],
  ['anker-klin-8x75', 'Анкер-клин 8×75 мм, 25 шт.', '720', OUT, BOLT, 'Клиновой анкер для бетона, оцинкованный.'],
  [
    'nabor-krepezha-1200',
    'Набор крепежа в кейсе, 1200 предметов',
    '2490',
    IN,
    SCREW,
    'Саморезы, дюбели, болты, гайки и шайбы ходовых размеров в органайзере.',
  ],
]

export const DEMO_FASTENERS: DemoListedProduct[] = ROWS.map(
  ([slug, title, price, availability, image, description], i) => ({
    slug,
    title,
    article: `КР-${String(2001 + i)}`,
    price,
    availability,
    image,
    description,
  }),
)
