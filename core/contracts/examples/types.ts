/** A bundled example contract (SPEC 2.6 Example entry). */
export interface Example {
  id: string
  title: string
  description: string
  source: string
}
