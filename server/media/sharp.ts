// sharp, loaded on first use: its native library and modules cost about half a second of start-up
// (docs/decisions/031-sections-and-scale.md, "Start-up"), and most processes start long before
// anyone uploads an image or asks for a share picture.
import type Sharp from 'sharp'

let loading: Promise<typeof Sharp> | null = null

export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((module) => module.default)
  return loading
}
