/** What the add-customer form chooses from: products, plans, brands, financiers, places and key balances. */
import type { Brand, Financier, LicenseBalance, LoanProduct, Place, Plan, Product } from '@kisht/contract/catalogue';
import { api, CACHE_FOR } from '../api/api.ts';

export const catalogueApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProducts: build.query<Product[], void>({ query: () => '/api/products' }),
    getLoanProducts: build.query<LoanProduct[], void>({ query: () => '/api/loan_products' }),
    getPlans: build.query<Plan[], number>({
      query: (productId) => ({ url: '/api/plans', params: { product_id: productId } }),
      keepUnusedDataFor: CACHE_FOR.plans,
    }),
    getPlan: build.query<Plan, number>({
      query: (planId) => ({ url: '/api/plans/readById', params: { plan_id: planId } }),
      keepUnusedDataFor: CACHE_FOR.plans,
    }),
    getBrands: build.query<Brand[], void>({ query: () => '/api/brands' }),
    getFinanciers: build.query<Financier[], void>({
      query: () => ({ url: '/api/customer/financer_list', method: 'POST', body: {} }),
    }),
    getCountries: build.query<Place[], void>({ query: () => '/api/countries' }),
    getStates: build.query<Place[], number>({ query: (countryId) => ({ url: '/api/states', params: { country_id: countryId } }) }),
    getCities: build.query<Place[], number>({ query: (stateId) => ({ url: '/api/cities', params: { state_id: stateId } }) }),
    getLicenseBalance: build.query<LicenseBalance[], void>({
      query: () => '/api/user/license_balance',
      providesTags: ['Balance'],
    }),
  }),
});

export const {
  useGetProductsQuery,
  useGetLoanProductsQuery,
  useGetPlansQuery,
  useGetPlanQuery,
  useGetBrandsQuery,
  useGetFinanciersQuery,
  useGetCountriesQuery,
  useGetStatesQuery,
  useGetCitiesQuery,
  useGetLicenseBalanceQuery,
} = catalogueApi;
