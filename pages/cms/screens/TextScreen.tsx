import type { TextPage } from '../../../src/site/types'
import { Breadcrumbs } from './Breadcrumbs'
import { Paragraphs } from './Paragraphs'
import './screens.css'

export function TextScreen({ page }: { page: TextPage }) {
  return (
    <div className="container text-page">
      <Breadcrumbs items={page.breadcrumbs} />
      <h1>{page.title}</h1>
      <Paragraphs text={page.content} />
    </div>
  )
}
