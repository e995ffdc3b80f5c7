// What the model API is asked for a record's own parts, for the tools that read a record whole (the
// back office's editor, the content export): one list, so a new field reaches both.

/** A site's settings (the `index` part of its root record). */
export const INDEX_PART_SELECT = {
  select: { logo: true, tel: true, telText: true, description: true, copyright: true },
} as const

/** A product's own fields (its pictures are the gallery, `images`). */
export const PRODUCT_PART_FIELDS = {
  article: true,
  price: true,
  oldPrice: true,
  vendor: true,
  availability: true,
  featured: true,
  description: true,
} as const
