// The one normaliser of the catalogue search (docs/decisions/030-search.md): what is written into
// the index and what a query becomes go through the same functions, so SQLite's FTS5 and
// PostgreSQL's tsvector hold, and are asked for, the same tokens.
//   - lower case, ё → е, words are runs of letters and digits (`[\p{L}\p{N}]+`);
//   - a word with a digit is an артикул-like token: Cyrillic letters that look like Latin ones are
//     folded to Latin («АВС-123» typed on a Russian keyboard is «abc»), nothing is stemmed;
//   - any other word is stemmed with Snowball's Russian stemmer (Latin words pass through it as
//     they are), so «холодильника» and «Холодильники» are both «холодильник».
// An артикул also gets a key of its letters and digits only (articleKey): «ABC-123/45», «abc12345»
// and «АВС 123 45» are one key, «ЭИ-1003» and «эи1003» another.
import snowball from 'snowball-stemmers'

const russian = snowball.newStemmer('russian')

/** Cyrillic letters with a Latin twin on a keyboard's caps, as they appear in артикулы */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
}

const WORD = /[\p{L}\p{N}]+/gu
const DIGIT = /\p{N}/u
/** A token longer than this is not a word anyone types: cut, so the index stays small */
const MAX_TOKEN = 60

/** Lower case with ё folded to е: the first step of everything below. */
export function foldCase(text: string): string {
  return text.toLocaleLowerCase('ru-RU').replace(/ё/g, 'е')
}

/** The words of a text, folded, in order (repeats kept). */
export function splitWords(text: string): string[] {
  return foldCase(text).match(WORD) ?? []
}

function foldLookAlikes(word: string): string {
  let folded = ''
  for (const char of word) folded += LOOK_ALIKES[char] ?? char
  return folded
}

/** Stems of words met lately: a catalogue's names repeat their words, and stemming is most of indexing */
const stems = new Map<string, string>()
const KEPT_STEMS = 50_000

/** The token a folded word is indexed and looked up by. */
export function tokenOf(word: string): string {
  if (DIGIT.test(word)) return foldLookAlikes(word).slice(0, MAX_TOKEN)
  let stem = stems.get(word)
  if (stem === undefined) {
    if (stems.size >= KEPT_STEMS) stems.clear()
    stem = russian.stem(word).slice(0, MAX_TOKEN)
    stems.set(word, stem)
  }
  return stem
}

/** The tokens of a text, in order (repeats kept). */
export function tokensOf(text: string): string[] {
  return splitWords(text).map(tokenOf)
}

/**
 * The key an артикул is found by in any form: its letters and digits, folded, look-alikes in
 * Latin. Null when nothing is left.
 */
export function articleKey(text: string): string | null {
  const key = foldLookAlikes(splitWords(text).join(''))
  return key === '' ? null : key.slice(0, 200)
}

/** What a product contributes to the index, as the search reads it. */
export interface SearchableProduct {
  readonly title: string
  readonly article: string | null
  readonly vendor: string | null
  readonly description: string | null
  /** The values of its characteristics */
  readonly properties: readonly string[]
  /** Its variants' артикулы (decision 043): found as its own is */
  readonly variantArticles?: readonly string[]
}

export interface SearchDocument {
  /** Tokens of the title and the артикул (the артикул's key among them), space-separated */
  readonly name: string
  /** Tokens of the brand, the description and the characteristics' values, space-separated */
  readonly body: string
  readonly articleKey: string | null
  /** Each distinct token with the first word it was made from: the typo vocabulary */
  readonly words: ReadonlyMap<string, string>
}

/** Bounds the text a product puts in the index (a very long description adds nothing findable) */
const MAX_BODY_CHARS = 20_000

export function searchDocument(product: SearchableProduct): SearchDocument {
  const words = new Map<string, string>()
  const tokenise = (text: string) =>
    splitWords(text).map((word) => {
      const token = tokenOf(word)
      if (!words.has(token)) words.set(token, word.slice(0, MAX_TOKEN))
      return token
    })
  const key = product.article ? articleKey(product.article) : null
  const name = [...tokenise(product.title), ...tokenise(product.article ?? '')]
  // An артикул's key is a name token too, and a word of the vocabulary like every other token
  // (PostgreSQL's search bounds a query by the vocabulary's counts: a token missing from it is
  // never found), when it is no longer than a token a query can make.
  const addKey = (article: string, articleKeyOf: string | null) => {
    if (articleKeyOf === null) return
    if (!name.includes(articleKeyOf)) name.push(articleKeyOf)
    if ([...articleKeyOf].length <= MAX_TOKEN && !words.has(articleKeyOf))
      words.set(articleKeyOf, splitWords(article).join('').slice(0, MAX_TOKEN))
  }
  if (product.article) addKey(product.article, key)
  for (const article of product.variantArticles ?? []) {
    for (const token of tokenise(article)) if (!name.includes(token)) name.push(token)
    addKey(article, articleKey(article))
  }
  const bodyText = [product.vendor ?? '', product.description ?? '', ...product.properties]
    .join('\n')
    .slice(0, MAX_BODY_CHARS)
  return { name: name.join(' '), body: tokenise(bodyText).join(' '), articleKey: key, words }
}
