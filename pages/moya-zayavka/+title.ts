import { REQUEST_LIST_TEXTS } from '../../src/lead/request-list-view'

export const title = REQUEST_LIST_TEXTS.title
