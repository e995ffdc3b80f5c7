// A product's own fields that follow its variants (docs/decisions/043-variants.md): its price, old
// price and availability are its variants' (the lowest price, the best availability), so «Товары»,
// the editor and the model API refuse an edit of them with one reason, which the screens also show
// beside the fields they do not offer.

/** Why a product with variants has no price (and old price) or availability field of its own */
export const FOLLOWS_VARIANTS = {
  price: 'Цена задаётся у вариантов: измените её в строке варианта',
  availability: 'Наличие задаётся у вариантов: измените его в строке варианта',
} as const
