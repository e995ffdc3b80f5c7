// A product without a picture (issue 46): a designed placeholder, not an empty box. The same
// pictogram (a framed landscape with a sun) is drawn by the cards and the product page in CSS
// (renderer/layout/layout.css, `.image--empty`) and by the share image of such a product
// (PATHS.noPhotoImage, a 1200×630 JPEG the media routes render from this SVG).

/** The share-sized placeholder: the pictogram on the site's light grey, no text (no font is assumed). */
export const NO_PHOTO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<rect width="1200" height="630" fill="#f1f3f5"/>
<g transform="translate(480 195)" fill="none" stroke="#9aa3ad" stroke-width="14" stroke-linejoin="round" stroke-linecap="round">
<rect x="0" y="0" width="240" height="240" rx="28"/>
<circle cx="164" cy="72" r="24"/>
<path d="M14 200 L88 118 L140 170 L170 140 L226 200"/>
</g>
</svg>`
