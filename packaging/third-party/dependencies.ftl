<#-- SPDX-License-Identifier: Apache-2.0 -->
<#-- Renders the bundled dependencies as a Markdown table (license-maven-plugin's add-third-party goal). -->
| library | version | licence(s) | project |
|---|---|---|---|
<#list dependencyMap as e>
<#assign p = e.getKey()/>
<#assign licenses = e.getValue()/>
| `${p.groupId}:${p.artifactId}` | ${p.version} | <#list licenses as l>${l}<#sep>; </#sep></#list> | ${p.url!""} |
</#list>
