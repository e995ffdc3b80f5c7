/**
 * A string with at least one non-whitespace character. Lead fields use it so that an empty or
 * blank value fails inside the schema itself, not only in code that remembers to trim; the
 * message table turns its failure into «Поле обязательно».
 */
export const NOT_BLANK_PATTERN = '\\S'

/** Only Latin letters, digits and underscores (Joi's «token»), mapped to its own message. */
export const TOKEN_PATTERN = '^\\w+$'
