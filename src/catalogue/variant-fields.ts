// A product's own fields that follow its variants (docs/decisions/043-variants.md): its price, old
// price and availability are its variants' (the lowest price, the best availability), so «Товары»,
// the editor and the model API refuse an edit of them with one reason, which the screens also show
// beside the fields they do not offer.

/** Why a product with variants has no price (and old price) or availability field of its own */
export const FOLLOWS_VARIANTS = {
  price: 'Цена задаётся у вариантов: измените её в строке варианта',
  availability: 'Наличие задаётся у вариантов: измените его в строке варианта',
} as const

/**
 * Why a variant 1C sent (its characteristic Ид) of a product from 1C has no title, артикул or option
 * fields (decision 044: they are its characteristics, 1C's at every exchange), and no picture field
 * while the owner lets 1C overwrite pictures («Картинки»).
 */
export const ONE_C_VARIANT = {
  title: 'Название варианта из 1С задаёт 1С: измените его в 1С',
  article: 'Артикул варианта из 1С задаёт 1С: измените его в 1С',
  options: 'Характеристики варианта из 1С задаёт 1С: измените их в 1С',
  image:
    'Картинку варианта из 1С перезаписывает 1С при каждом обмене: замените её в 1С или выключите «Картинки» в настройках обмена',
} as const

/** A variant's picture is a file the editor uploads, never a path a client names */
export const VARIANT_IMAGE_UPLOAD = 'Картинку варианта загрузите файлом: JPEG, PNG, WebP или AVIF'
