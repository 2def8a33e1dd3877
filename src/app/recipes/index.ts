export { stableDocument } from "./snapshot.js";
export { FIXTURES_DIR, recipesWithFixtures, type RecipeTest, testRecipes } from "./tests.js";
