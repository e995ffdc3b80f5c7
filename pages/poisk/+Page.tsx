// https://vike.dev/Page — the catalogue search's results, rendered on the server
// (docs/decisions/030-search.md). Without a query: the form only, nothing searched.
import '../cms/screens/screens.css'
import './poisk.css'
import { useData } from 'vike-react/useData'
import type { Data } from './+data'
import { SearchForm } from './SearchForm'
import { SearchResults } from './SearchResults'

export function Page() {
  const answer = useData<Data>()
  return (
    <div className="container search-page">
      <h1>Поиск по каталогу</h1>
      <SearchForm query={answer.query} />
      {answer.state === 'too_long' && (
        <p className="search-page__status" role="alert">
          Запрос слишком длинный: не больше 200 символов.
        </p>
      )}
      {answer.state === 'results' && <SearchResults answer={answer} />}
    </div>
  )
}
