// Images for the media suites: a photo-like upload through the write API and what a page lists.
import sharp from 'sharp'
import type { App } from '../../server/app'
import { multipartBody } from './multipart'

/** A photo-like JPEG (noise, so the encoders have real work), width × height. */
export function photo(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 120, sigma: 30 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer()
}

/** A product under the demo shop's power tools with this photo, created through the write API. */
export async function postProduct(app: App, token: string, urlFull: string, bytes: Buffer) {
  const section = await app.db
    .selectFrom('structure')
    .select('id')
    .where('urlFull', '=', '/structure/power-tools/')
    .executeTakeFirstOrThrow()
  const data = { parentId: section.id, typeId: 'product', title: 'Товар с фото', urlFull, product: { price: 1990 } }
  const body = multipartBody({ data: JSON.stringify(data) }, [{ name: 'product.image', filename: 'photo.jpg', bytes }])
  return app.inject({
    method: 'POST',
    url: '/api/structure',
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${token}` },
  })
}

/** Every variant a page lists: each `<picture>`'s AVIF candidates, then its WebP fallback. */
export function variantUrls(html: string): string[] {
  return [...html.matchAll(/<picture class="image-set">([\s\S]*?)<\/picture>/g)].flatMap(([, picture]) =>
    [
      ...[...picture.matchAll(/srcSet="([^"]+)"/g)].flatMap(([, set]) =>
        set.split(', ').map((candidate) => candidate.split(' ')[0]),
      ),
      ...[...picture.matchAll(/<img [^>]*src="([^"]+)"/g)].map(([, src]) => src),
    ].map((url) => url.replace(/&amp;/g, '&')),
  )
}
