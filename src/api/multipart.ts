export { toFormData, fromMultipartParts, MULTIPART_DATA_FIELD }
export type { MultipartFilePart }

/**
 * The write API's multipart shape (docs/contract.md §3), built by the browser and rebuilt by the server:
 * one field `data` holds every non-file value as JSON; each File or Blob is its own entry named by
 * its dot path (`product.image`, `sliderItems.0.image`). A file inside an array leaves `null` in
 * the JSON so later indices keep their place; a file property is left out of its object.
 */

const MULTIPART_DATA_FIELD = 'data'

interface MultipartFilePart<F> {
  /** Dot path, as the entry's field name: `sliderItems.0.image`. */
  readonly path: string
  readonly value: F
}

const INDEX = /^(?:0|[1-9]\d*)$/
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * True for a Blob or File, including one from another realm or copy of the fetch stack.
 *
 * @example
 * isBlobLike(new Blob(['x'])) // true
 * isBlobLike({ size: 1 })     // false
 */
function isBlobLike(value: unknown): value is Blob {
  if (typeof Blob !== 'undefined' && value instanceof Blob) return true
  if (typeof value !== 'object' || value === null) return false
  const tag = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag]
  return (
    (tag === 'Blob' || tag === 'File') &&
    typeof (value as Blob).arrayBuffer === 'function' &&
    typeof (value as Blob).size === 'number'
  )
}

/**
 * Splits values into the write API's multipart form. Only plain objects and arrays are walked;
 * anything else (a Date, say) goes into the JSON through its `toJSON`. A File keeps its name;
 * a Blob is sent with the name 'blob'.
 *
 * @example
 * const form = toFormData({ title: 'Дрель', product: { image: file, price: 100 } })
 * // form.get('data') === '{"title":"Дрель","product":{"price":100}}'
 * // form.get('product.image') === file
 */
function toFormData(values: Readonly<Record<string, unknown>>): FormData {
  const files: Array<MultipartFilePart<Blob>> = []
  const data = stripFiles(values, [], files)
  const form = new FormData()
  form.append(MULTIPART_DATA_FIELD, JSON.stringify(data))
  for (const { path, value } of files) {
    // A File keeps its own name when none is passed; a bare Blob gets 'blob'.
    form.append(path, value)
  }
  return form
}

function stripFiles(value: unknown, path: readonly string[], files: Array<MultipartFilePart<Blob>>): unknown {
  if (Array.isArray(value)) {
    return value.map((item, index) => {
      const itemPath = [...path, String(index)]
      if (isBlobLike(item)) {
        files.push({ path: toDotPath(itemPath), value: item })
        return null
      }
      return stripFiles(item, itemPath, files)
    })
  }
  if (!isPlainObject(value)) return value
  const result: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const itemPath = [...path, key]
    if (isBlobLike(item)) {
      files.push({ path: toDotPath(itemPath), value: item })
      continue
    }
    result[key] = stripFiles(item, itemPath, files)
  }
  return result
}

function toDotPath(segments: readonly string[]): string {
  // A dot inside a key would read back as two levels; 'data' alone would collide with the JSON field.
  if (segments.some((segment) => segment === '' || segment.includes('.'))) {
    throw new TypeError(`toFormData: a file's keys cannot be empty or contain a dot (${JSON.stringify(segments)})`)
  }
  const path = segments.join('.')
  if (path === MULTIPART_DATA_FIELD) {
    throw new TypeError(`toFormData: a file cannot be named "${MULTIPART_DATA_FIELD}"`)
  }
  return path
}

/**
 * Rebuilds the values from the `data` field and the file entries: the server's half of
 * `toFormData`. Each file goes back at its dot path, creating missing objects (or an array, for a
 * numeric segment). Throws TypeError (the server answers 400) when `data` is not a JSON object, or
 * a path is `data` itself, unsafe (`__proto__`, …), leaves a gap in an array or runs through a
 * value that is not an object or array.
 *
 * @example
 * fromMultipartParts('{"title":"Дрель","product":{"price":100}}', [{ path: 'product.image', value: saved }])
 * // { title: 'Дрель', product: { price: 100, image: saved } }
 */
function fromMultipartParts<F>(
  dataJson: string | undefined,
  files: ReadonlyArray<MultipartFilePart<F>>,
): Record<string, unknown> {
  let root: unknown = {}
  if (dataJson !== undefined && dataJson !== '') {
    try {
      root = JSON.parse(dataJson)
    } catch {
      throw new TypeError('fromMultipartParts: the data field is not valid JSON')
    }
  }
  if (!isPlainObject(root)) throw new TypeError('fromMultipartParts: the data field must hold a JSON object')
  for (const file of files) setAtPath(root, file.path, file.value)
  return root
}

function setAtPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.')
  if (path === MULTIPART_DATA_FIELD || segments.some((segment) => segment === '' || UNSAFE_KEYS.has(segment))) {
    throw new TypeError(`fromMultipartParts: unsafe file path "${path}"`)
  }
  let container: Record<string, unknown> | unknown[] = root
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]
    const last = i === segments.length - 1
    let next: unknown
    if (Array.isArray(container)) {
      if (!INDEX.test(segment) || Number(segment) > container.length) {
        throw new TypeError(
          `fromMultipartParts: "${path}" does not fit the array at "${segments.slice(0, i).join('.')}"`,
        )
      }
      const index = Number(segment)
      if (last) {
        container[index] = value
        return
      }
      next = container[index]
      if (next === undefined || next === null) {
        next = INDEX.test(segments[i + 1]) ? [] : {}
        container[index] = next
      }
    } else {
      if (last) {
        container[segment] = value
        return
      }
      next = Object.hasOwn(container, segment) ? container[segment] : undefined
      if (next === undefined || next === null) {
        next = INDEX.test(segments[i + 1]) ? [] : {}
        container[segment] = next
      }
    }
    if (!Array.isArray(next) && !isPlainObject(next)) {
      throw new TypeError(`fromMultipartParts: "${path}" runs through a value that is not an object`)
    }
    container = next
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}
