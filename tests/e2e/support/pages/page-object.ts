import type { Page } from "@playwright/test";

/**
 * What every page object is built on: the page it drives. A page object's locators are its fields, each written
 * once where it is declared (field initialisers run after this constructor, so they may use `this.page`).
 */
export abstract class PageObject {
  constructor(protected readonly page: Page) {}
}
