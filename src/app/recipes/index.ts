/** Testing recipes: replaying each pipeline's fixture and comparing its results with the committed snapshot. */
export { stableDocument } from "./snapshot.js";
export { FIXTURES_DIR, recipesWithFixtures, type RecipeTest, testRecipes } from "./tests.js";
